// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Game
import MotionCore
import TestSupport

/// The game on real motion: a window of BROAD's fast translation trial (a
/// hand pushing the IMU about at up to 4 g, turning it little) played
/// headless, the tilt the physics used each step held against the optical
/// reference.
@Suite("Headless game on BROAD's real fast translation")
struct BroadHeadlessGameTests {
    /// An open room: nothing to stop the ball, nothing to end the game.
    let room = try! LevelParser(file: "room").parse("""
        title: Room
        maze:
        #####################
        #                   #
        #                   #
        #                   #
        #         S         #
        #                   #
        #                   #
        #                  E#
        #####################

        """)

    @Test("the physics' gravity stays within a few degrees of the truth while the board is pushed about")
    func tiltHolds() throws {
        let window = try BroadWindow("15_fast_translation_A.broadwin")
        let vqf = try BroadWindow.reference("15_fast_translation_A.broadwin", filter: "VQF online")
        let step = 1e9 / window.rate
        var worst = 0.0, sum = 0.0, count = 0
        _ = HeadlessGame.run(level: room, samples: window.samples) { snapshot, lastSample in
            let i = Int((Double(lastSample) / step).rounded())
            guard Double(lastSample) >= 2e9, let truth = window.trueUp[i] else { return }
            let error = BroadWindow.degrees(.zero - snapshot.gravity, truth)
            worst = max(worst, error)
            sum += error * error
            count += 1
        }
        #expect(count > 20 * Int(PhysicsLoop.defaultRate))
        let rms = (sum / Double(count)).squareRoot()
        // VQF's own worst on this window, sample by sample, is 1.4°.
        #expect(worst <= 1.25 * vqf.maxAfter2s, "worst \(worst)°, RMS \(rms)°")
        #expect(rms <= 1.1 * vqf.rmsAfter2s, "RMS \(rms)°")
    }
}
