// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
@testable import Game

/// The campaign's levels, each checked as a level author would want: it
/// can be won, its ghosts walk on floor and never start on the player, every
/// pellet can be eaten; and the campaign as a whole gets harder.
@Suite("The campaign")
struct CampaignTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var levels: [Campaign.BundledLevel] { Campaign.levels }

    @Test("there are at least eight levels, and the compiled-in text is levels/campaign/ exactly (scripts/bundle-campaign.py)")
    func matchesFiles() throws {
        #expect(Campaign.levels.count >= 8)
        let directory = Self.root.appendingPathComponent("levels/campaign")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(files.map { String($0.dropLast(4)) } == Campaign.bundled.map(\.id))
        for (file, bundled) in zip(files, Campaign.bundled) {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            #expect(text.trimmingCharacters(in: .newlines) == bundled.text.trimmingCharacters(in: .newlines), "\(file)")
        }
    }

    @Test("each level: the start reaches an exit, the border is wall, every pellet is reachable",
          arguments: Campaign.levels.map(\.id))
    func connected(_ id: String) throws {
        let level = try #require(Campaign.levels.first { $0.id == id }).level
        let reach = Reachability(level)
        #expect(!reach.reachableExits.isEmpty, "no exit can be walked to")
        for p in level.pellets {
            #expect(reach.canReach(p.column, p.row), "pellet at \(p.column),\(p.row) cannot be reached")
        }
        for c in 0 ..< level.width { #expect(level.isWall(c, 0) && level.isWall(c, level.height - 1)) }
        for r in 0 ..< level.height { #expect(level.isWall(0, r) && level.isWall(level.width - 1, r)) }
    }

    @Test("each level: every ghost leg runs on floor, and none comes within three steps of the start",
          arguments: Campaign.levels.map(\.id))
    func ghostsOnFloor(_ id: String) throws {
        let level = try #require(Campaign.levels.first { $0.id == id }).level
        let distance = MazeGenerator.walkDistances(level.cells, width: level.width, height: level.height, from: level.start)
        for ghost in level.ghosts {
            let points = ghost.waypoints
            let legs = points.count == 2 ? [(points[0], points[1])] : (0 ..< points.count).map { (points[$0], points[($0 + 1) % points.count]) }
            for (a, b) in legs {
                #expect(a.column == b.column || a.row == b.row)
                var c = a.column, r = a.row
                while true {
                    #expect(!level.isWall(c, r), "ghost leg through the wall at \(c),\(r)")
                    #expect(distance[r * level.width + c] > 3, "a ghost passes \(c),\(r), too near the start")
                    if c == b.column && r == b.row { break }
                    c += (b.column - c).signum()
                    r += (b.row - r).signum()
                }
            }
        }
    }

    @Test("it gets harder: routes grow longer and ghosts more numerous from the first level to the last")
    func risingDifficulty() {
        func route(_ level: Level) -> Int {
            let distance = MazeGenerator.walkDistances(level.cells, width: level.width, height: level.height, from: level.start)
            return level.cells.indices.filter { level.cells[$0] == .exit }.map { distance[$0] }.min() ?? 0
        }
        let levels = Campaign.levels.map(\.level)
        let first = levels.first!, last = levels.last!
        #expect(route(last) > 2 * route(first))
        #expect(last.ghosts.count > 2 * first.ghosts.count)
        // Never much easier than the level before: no drop of more than a third in route or ghosts.
        for (a, b) in zip(levels, levels.dropFirst()) {
            #expect(route(b) * 3 >= route(a) * 2 || b.ghosts.count > a.ghosts.count, "\(b.title) after \(a.title)")
            #expect(b.ghosts.count * 3 >= a.ghosts.count * 2, "\(b.title) after \(a.title)")
        }
        // At least one level keeps its exit shut until the pellets are eaten, and one sends ghosts round loops.
        #expect(levels.contains { $0.exitNeedsAllPellets })
        #expect(levels.contains { $0.ghosts.contains { $0.waypoints.count > 2 } })
    }

    @Test("every campaign level fits an 80x24 terminal and the smallest framebuffer the game accepts")
    func fits() {
        for level in Campaign.levels.map(\.level) {
            #expect(level.width <= 80 && (level.height + 1) / 2 <= 22, "\(level.title) is \(level.width)x\(level.height)")
        }
    }
}
