// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Game

/// `walkDistances` places the generator's exit (the farthest cell) and its
/// ghosts (away from the start), and the campaign's difficulty tests measure
/// routes with it; here it is checked against distances counted by hand and
/// against a different algorithm.
@Suite("Walking distances in a maze")
struct WalkDistancesTests {
    /// A maze from rows of `#` (wall), `E` (exit), `S` (start) and anything
    /// else (floor); no border is required.
    static func maze(_ rows: [String]) -> (cells: [Cell], width: Int, height: Int, start: (column: Int, row: Int)) {
        var cells: [Cell] = [], start = (column: -1, row: -1)
        for (r, line) in rows.enumerated() {
            for (c, ch) in line.enumerated() {
                cells.append(ch == "#" ? .wall : ch == "E" ? .exit : .floor)
                if ch == "S" { start = (c, r) }
            }
        }
        return (cells, rows[0].count, rows.count, start)
    }

    /// Distances drawn like the maze: `#` wall, `-` cannot be reached, else the distance in base 36.
    static func drawn(_ distance: [Int], _ cells: [Cell], width: Int) -> [String] {
        stride(from: 0, to: cells.count, by: width).map { rowStart in
            String((rowStart ..< rowStart + width).map { i -> Character in
                cells[i] == .wall ? "#" : distance[i] < 0 ? "-" : Character(String(distance[i], radix: 36))
            })
        }
    }

    @Test("counted by hand: round a wall, through an exit as through floor, never into a walled-off room")
    func byHand() {
        let m = Self.maze([
            "########",
            "#S  #  #",
            "# # # ##",
            "#   E  #",
            "###### #",
            "#  #   #",
            "########",
        ])
        let distance = MazeGenerator.walkDistances(m.cells, width: m.width, height: m.height, from: m.start)
        #expect(Self.drawn(distance, m.cells, width: m.width) == [
            "########",
            "#012#89#",
            "#1#3#7##",
            "#234567#",
            "######8#",
            "#--#ba9#",
            "########",
        ])
    }

    @Test("the shorter way round a loop, and no border needed: the maze's edge stops the walk")
    func loopAndEdge() {
        let m = Self.maze([
            " S   ",
            " ### ",
            "     ",
            "#### ",
            "E    ",
        ])
        let distance = MazeGenerator.walkDistances(m.cells, width: m.width, height: m.height, from: m.start)
        #expect(Self.drawn(distance, m.cells, width: m.width) == [
            "10123",
            "2###4",
            "34565",
            "####6",
            "ba987",
        ])
    }

    @Test("wider than tall and taller than wide: columns and rows are not swapped")
    func notSquare() {
        let wide = Self.maze(["S  #  ", "   #  "])
        #expect(Self.drawn(MazeGenerator.walkDistances(wide.cells, width: 6, height: 2, from: wide.start), wide.cells, width: 6)
                == ["012#--", "123#--"])
        let tall = Self.maze([" ", "S", "#", " "])
        #expect(Self.drawn(MazeGenerator.walkDistances(tall.cells, width: 1, height: 4, from: tall.start), tall.cells, width: 1)
                == ["1", "0", "#", "-"])
    }

    @Test("the same as distances found by relaxation, on generated mazes and the campaign")
    func againstRelaxation() throws {
        var levels = try (0 ..< UInt64(20)).map { try MazeGenerator.generate(seed: $0, width: 21 + 2 * Int($0 % 4), height: 15) }
        levels += Campaign.levels.map(\.level)
        for level in levels {
            let distance = MazeGenerator.walkDistances(level.cells, width: level.width, height: level.height, from: level.start)
            #expect(distance == relaxedDistances(level), "\(level.title)")
        }
    }

    @Test("the independent flood agrees with it on what can be reached")
    func floodAgrees() throws {
        for seed in 0 ..< UInt64(20) {
            let level = try MazeGenerator.generate(seed: seed, width: 31, height: 21)
            let distance = MazeGenerator.walkDistances(level.cells, width: level.width, height: level.height, from: level.start)
            let reach = Reachability(level)
            let reachable = level.cells.indices.map { reach.canReach($0 % level.width, $0 / level.width) }
            #expect(reachable == distance.map { $0 >= 0 }, "seed \(seed)")
        }
    }
}
