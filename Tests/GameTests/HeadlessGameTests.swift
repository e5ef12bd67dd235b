// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Game
import MotionCore

@Suite("Headless game (play --headless)")
struct HeadlessGameTests {
    /// A corridor: the exit is three cells to the right of the start.
    let corridor = try! LevelParser(file: "corridor").parse("title: Corridor\nmaze:\n#######\n#S   E#\n#######\n")

    /// `seconds` of samples at `rate` of a board lowered by `roll` on its right edge.
    func tilted(roll: Double, seconds: Double = 6, rate: Double = 200, gyro: Bool = true) -> [MotionSample] {
        let n = Int(seconds * rate)
        return (0..<n).map { i in
            MotionSample(timestamp: 5_000_000_000 + Int64(Double(i) * 1e9 / rate),
                         acceleration: .zero - TiltBoard.gravity(roll: roll, pitch: 0), rotationRate: .zero,
                         fields: gyro ? [.acceleration, .rotationRate] : .acceleration)
        }
    }

    @Test("tilting towards the exit wins; the time and the steps are counted")
    func wins() {
        // Game time, on the samples' own clock (no wall clock runs here): the
        // win comes after some play and before the recording's 6 s run out.
        let recorded = 6.0
        let outcome = HeadlessGame.run(level: corridor, samples: tilted(roll: 0.25, seconds: recorded))
        #expect(outcome.won)
        #expect(outcome.time > 0.1 && outcome.time < recorded)
        #expect(outcome.steps == Int((outcome.time * PhysicsLoop.defaultRate).rounded()))
        #expect(outcome.jsonLine.hasPrefix("{\"won\":true,\"lost\":false,\"time_s\":"))
    }

    @Test("the same samples give the same game bit for bit; other samples another path")
    func deterministic() {
        let samples = tilted(roll: 0.1) + tilted(roll: -0.05, seconds: 1).map {
            var s = $0; s.timestamp += 6_000_000_000; return s
        }
        let a = HeadlessGame.run(level: BundledLevels.defaultLevel(), samples: samples)
        let b = HeadlessGame.run(level: BundledLevels.defaultLevel(), samples: samples)
        #expect(a == b)
        let level = HeadlessGame.run(level: BundledLevels.defaultLevel(), samples: tilted(roll: 0, seconds: 7))
        #expect(level.trajectoryHash != a.trajectoryHash)
        #expect(!level.won && level.steps == a.steps)
    }

    @Test("a burst bigger than the ring is fed in pieces, nothing lost: the game still ends the same way")
    func burst() {
        var samples = tilted(roll: 0.25, seconds: 6, rate: 5_000)
        // 3000 samples stamped at one instant, as a FIFO flush might deliver them.
        for i in 0..<3000 { samples[i].timestamp = samples[0].timestamp }
        let outcome = HeadlessGame.run(level: corridor, samples: samples)
        #expect(outcome.won)
        #expect(outcome == HeadlessGame.run(level: corridor, samples: samples))
    }

    @Test("no samples: no game, no crash")
    func empty() {
        let outcome = HeadlessGame.run(level: corridor, samples: [])
        #expect(!outcome.won && outcome.steps == 0)
    }
}
