/// The one place the version is written: `tiltmaze --version` prints it, and
/// `scripts/install.py` reads it from `--version` for what it installs.
let tiltmazeVersion = "0.9.0"
