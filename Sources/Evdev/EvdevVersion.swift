import CEvdev
