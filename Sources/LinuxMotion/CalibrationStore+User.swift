// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionDevices
import LibC

extension CalibrationStore {
    /// Where `tiltmaze calibrate` keeps each device's calibration:
    /// `$XDG_CONFIG_HOME/tiltmaze/calibration`, else `~/.config/tiltmaze/calibration`;
    /// nil when neither variable is an absolute path, or when a program run
    /// as root is given a folder that is not root's alone (root must not
    /// write where a user's environment, kept by `sudo -E`, points).
    public static var forThisUser: CalibrationStore? {
        var environment: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return standard(environment: environment)
    }
}
