// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls
import Game
@testable import Render

/// Levels and helpers shared by the tests.
enum Fixtures {
    /// A 20×10 maze: border walls, one inner wall, an exit on the right.
    /// On 80×24 it scales by 4 (80/20 columns, 44/10 pixel rows).
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

    static func snapshot(ball: Point, elapsed: Double = 0, catches: Int = 0,
                         status: GameStatus = .playing, caughtFlash: Int = 0, lives: Int = 3, score: Int = 0) -> WorldSnapshot {
        var s = WorldSnapshot()
        s.lives = lives
        s.score = score
        s.ball = ball
        s.elapsed = elapsed
        s.catches = catches
        s.status = status
        s.caughtFlash = caughtFlash
        return s
    }

    /// The bytes as an array, copied out of the screen's buffer.
    static func bytes(_ buffer: UnsafeRawBufferPointer) -> [UInt8] { Array(buffer) }

    static func string(_ buffer: UnsafeRawBufferPointer) -> String { String(decoding: buffer, as: UTF8.self) }

    /// How often `needle` occurs in `haystack`.
    static func occurrences(of needle: String, in haystack: String) -> Int {
        haystack.ranges(of: needle).count
    }
}
