// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The one place the version is written: `tiltmaze --version` prints it, and
/// `scripts/install.py` reads it from `--version` for what it installs.
let tiltmazeVersion = "0.9.0"
