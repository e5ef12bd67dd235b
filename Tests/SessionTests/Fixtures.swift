// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore

/// The level the session's tests play.
enum Fixtures {
    /// A 20×10 maze: border walls, one inner wall, an exit on the right
    /// (the same maze RenderTests draw).
    static let level: Level = {
        var rows: [String] = []
        rows.append(String(repeating: "#", count: 20))
        for r in 1 ..< 9 {
            var row = "#" + String(repeating: " ", count: 18) + "#"
            if r == 4 { row = "#" + String(repeating: " ", count: 9) + "#########" + "#" }
            if r == 1 { row = "#S" + String(repeating: " ", count: 16) + "E#" }
            rows.append(row)
        }
        rows.append(String(repeating: "#", count: 20))
        let text = "title: Test Maze\nmaze:\n" + rows.joined(separator: "\n") + "\n"
        return try! LevelParser(file: "fixture").parse(text)
    }()
}

/// Gravity in the board's frame for a board whose right edge is lowered by `angle`.
func gravity(right angle: Double = 0, up pitch: Double = 0) -> Vector3 {
    TiltBoard.gravity(roll: angle, pitch: pitch)
}
