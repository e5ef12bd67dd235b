// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Game

@Suite("Random mazes")
struct MazeGeneratorTests {
    func level(_ seed: UInt64, _ w: Int = 41, _ h: Int = 21) throws -> Level {
        try MazeGenerator.generate(seed: seed, width: w, height: h)
    }

    @Test("always solvable: the exit can be walked to from the start, over 300 seeds and many sizes")
    func solvable() throws {
        for seed in 0 ..< UInt64(300) {
            let sizes = [(7, 7), (41, 21), (21, 41), (40, 20), (101, 101)]
            let (w, h) = sizes[Int(seed) % sizes.count]
            let maze = try level(seed, w, h)
            let reach = Reachability(maze)
            #expect(reach.exits.count == 1, "seed \(seed)")
            #expect(reach.reachableExits.count == reach.exits.count, "seed \(seed) \(w)x\(h): exit cut off")
            #expect(reach.exits.allSatisfy { $0 != maze.start }, "seed \(seed): the exit is on the start")
            // Every floor cell is reachable: a maze, not islands.
            #expect(reach.islands.count == 0, "seed \(seed) \(w)x\(h): cut-off floor at \(reach.islands.prefix(3))")
            // Closed all round.
            for c in 0 ..< w { #expect(maze.isWall(c, 0) && maze.isWall(c, h - 1)) }
            for r in 0 ..< h { #expect(maze.isWall(0, r) && maze.isWall(w - 1, r)) }
        }
    }

    @Test("the same seed and size give the same maze; another seed another")
    func deterministic() throws {
        #expect(LevelText.render(try level(42)) == LevelText.render(try level(42)))
        #expect(try level(42).cells != level(43).cells)
        #expect(try level(42).title == "Random maze 41x21, seed 42")
    }

    @Test("loops are opened, so a ghost can be gone round: more passages than a tree has")
    func loops() throws {
        let maze = try level(7, 61, 41)
        var nodes = 0, edges = 0
        for r in 0 ..< maze.height {
            for c in 0 ..< maze.width where !maze.isWall(c, r) {
                nodes += 1
                if !maze.isWall(c + 1, r) { edges += 1 }
                if !maze.isWall(c, r + 1) { edges += 1 }
            }
        }
        #expect(edges - nodes + 1 >= 10, "independent loops: \(edges - nodes + 1)")
    }

    @Test("ghosts patrol straight runs of floor, away from the start, within the level's limit")
    func ghosts() throws {
        for seed in 0 ..< UInt64(50) {
            let maze = try level(seed, 61, 41)
            #expect(!maze.ghosts.isEmpty && maze.ghosts.count <= Level.maxGhosts)
            let distance = MazeGenerator.walkDistances(maze.cells, width: maze.width, height: maze.height, from: maze.start)
            for ghost in maze.ghosts {
                let (a, b) = (ghost.waypoints[0], ghost.waypoints[1])
                #expect(a.column == b.column || a.row == b.row)
                for c in min(a.column, b.column) ... max(a.column, b.column) {
                    for r in min(a.row, b.row) ... max(a.row, b.row) { #expect(!maze.isWall(c, r), "seed \(seed): ghost leg on a wall") }
                }
                #expect(distance[a.row * maze.width + a.column] >= 8 && distance[b.row * maze.width + b.column] >= 8)
                #expect((1.5 ... 2.5).contains(ghost.speed))
            }
        }
    }

    @Test("written as a level file, a generated maze reads back as the same level")
    func levelFile() throws {
        let maze = try level(9, 31, 15)
        let text = LevelText.render(maze, comment: "made by a test")
        #expect(text.hasPrefix("# made by a test\ntitle: Random maze 31x15, seed 9\nghost: "))
        let back = try LevelParser(file: "generated").parse(text)
        #expect(back.cells == maze.cells && back.start == maze.start && back.ghosts == maze.ghosts && back.title == maze.title)
    }

    @Test("sizes out of range are refused with the range")
    func sizes() {
        #expect(throws: MazeGenerator.SizeError.self) { try MazeGenerator.generate(seed: 1, width: 5, height: 9) }
        do {
            _ = try MazeGenerator.generate(seed: 1, width: 9, height: 500)
            Issue.record("500 rows accepted")
        } catch {
            #expect(error.description == "the maze height must be 7 to 201 cells, not 500")
        }
    }
}
