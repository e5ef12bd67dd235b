// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Game

/// The default level is the campaign's First Roll (CampaignTests checks its
/// file against the compiled-in text, and that its exit can be reached).
@Suite("The bundled level")
struct BundledLevelTests {
    @Test("it is the campaign's First Roll, with its three ghosts")
    func parses() {
        let level = BundledLevels.defaultLevel()
        #expect(level.title == "First Roll")
        #expect(level.ghosts.count == 3)
        #expect(level === Campaign.levels[1].level)
    }

    @Test("the exit can be reached from the start")
    func exitReachable() {
        let level = BundledLevels.defaultLevel()
        #expect(!Reachability(level).reachableExits.isEmpty)
    }
}
