// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
@testable import Game

/// The cells a player can walk to from the start, found without
/// `MazeGenerator.walkDistances`. The generator places its exit with that
/// function, so a maze checked by it would let one bug hide another: a
/// search that walked through walls would both misplace the exit and call
/// the result solvable. This one is a depth-first flood over `Level.isWall`,
/// the wall test the ball's physics uses, and knows only "reachable".
struct Reachability {
    let level: Level
    private var reached: Set<Int> = []

    init(_ level: Level) {
        self.level = level
        var stack = [level.start]
        while let (column, row) = stack.popLast() {
            guard !level.isWall(column, row), reached.insert(row * level.width + column).inserted else { continue }
            stack += [(column, row - 1), (column - 1, row), (column + 1, row), (column, row + 1)]
        }
    }

    func canReach(_ column: Int, _ row: Int) -> Bool {
        column >= 0 && row >= 0 && column < level.width && row < level.height && reached.contains(row * level.width + column)
    }

    /// Every exit cell the player can walk to.
    var reachableExits: [(column: Int, row: Int)] {
        exits.filter { canReach($0.column, $0.row) }
    }

    var exits: [(column: Int, row: Int)] {
        level.cells.indices.filter { level.cells[$0] == .exit }.map { ($0 % level.width, $0 / level.width) }
    }

    /// Floor or exit cells the player can never get to.
    var islands: [(column: Int, row: Int)] {
        level.cells.indices.filter { level.cells[$0] != .wall && !reached.contains($0) }.map { ($0 % level.width, $0 / level.width) }
    }
}

/// Shortest walking distances by repeated relaxation until nothing changes:
/// slow, but a different algorithm from the breadth-first search it checks.
func relaxedDistances(_ level: Level) -> [Int] {
    let unreached = Int.max / 2
    var distance = [Int](repeating: unreached, count: level.cells.count)
    distance[level.start.row * level.width + level.start.column] = 0
    var changed = true
    while changed {
        changed = false
        for row in 0 ..< level.height {
            for column in 0 ..< level.width where !level.isWall(column, row) {
                let here = row * level.width + column
                for (c, r) in [(column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1)] where !level.isWall(c, r) {
                    let there = r * level.width + c
                    if distance[there] + 1 < distance[here] {
                        distance[here] = distance[there] + 1
                        changed = true
                    }
                }
            }
        }
    }
    return distance.map { $0 == unreached ? -1 : $0 }
}
