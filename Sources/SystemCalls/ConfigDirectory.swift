// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Where TiltMaze keeps its settings and calibration: `$XDG_CONFIG_HOME/tiltmaze`,
/// else `~/.config/tiltmaze` (the XDG Base Directory rules: a relative
/// `XDG_CONFIG_HOME` is ignored).
public enum ConfigDirectory {
    /// The directory, or nil when neither variable gives an absolute path.
    public static func path(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/tiltmaze" }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.config/tiltmaze"
        }
        return nil
    }
}
