// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A level written as a level file (docs/playing.md, "Level files"), which
/// `LevelParser` reads back as the same level: how `tiltmaze generate`
/// saves a random maze for editing or sharing.
public enum LevelText {
    public static func render(_ level: Level, comment: String? = nil) -> String {
        var text = ""
        if let comment { text += comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)\n" }.joined() }
        text += "title: \(level.title)\n"
        for ghost in level.ghosts {
            text += "ghost: " + ghost.waypoints.map { "\($0.column),\($0.row)" }.joined(separator: " -> ")
                + " speed \(ghost.speed)\n"
        }
        if level.exitNeedsAllPellets { text += "exit: after pellets\n" }
        text += "maze:\n"
        for r in 0 ..< level.height {
            var row = ""
            for c in 0 ..< level.width {
                if (c, r) == level.start {
                    row += "S"
                    continue
                }
                switch level.cell(c, r) {
                case .wall: row += "#"
                case .floor: row += level.pellet(c, r) == nil ? " " : "o"
                case .exit: row += "E"
                }
            }
            text += row + "\n"
        }
        return text
    }
}
