// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// The names records are kept under: `campaign/<id>` for a bundled level
/// (its progress survives the level being retuned in an update), and
/// `level/<title>-<hash>` for a level file, the hash over the level as
/// written out, so an edited level starts a new record.
public enum LevelKey {
    public static func campaign(_ id: String) -> String { "campaign/" + id }

    public static func file(_ level: Level) -> String {
        "level/" + KeptFile.name(for: level.title, hashing: LevelText.render(level), length: 40)
    }
}
