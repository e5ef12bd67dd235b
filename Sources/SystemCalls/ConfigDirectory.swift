// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Where TiltMaze keeps its settings and calibration: `$XDG_CONFIG_HOME/tiltmaze`,
/// else `~/.config/tiltmaze` (the XDG Base Directory rules: a relative
/// `XDG_CONFIG_HOME` is ignored).
public enum ConfigDirectory {
    /// The directory the environment names, or nil when neither variable
    /// gives an absolute path. Unchecked: what reads or writes there asks
    /// `choose`, which refuses root a folder that is not root's.
    public static func path(environment: [String: String]) -> String? {
        EnvironmentFolder.named("XDG_CONFIG_HOME", else: ".config", environment: environment)?.folder
    }

    /// The directory to use, for a process whose effective uid is
    /// `effectiveUID` (`EnvironmentFolder` says why root may be refused).
    public static func choose(environment: [String: String],
                              effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> EnvironmentFolder {
        EnvironmentFolder.choose("XDG_CONFIG_HOME", else: ".config", environment: environment, effectiveUID: effectiveUID)
    }

    /// What is kept there, as the refusal's words put it.
    public static let contents = "settings and calibration"
}
