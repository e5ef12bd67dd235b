// Replaced by the command line (in progress).
print("tiltmaze")
