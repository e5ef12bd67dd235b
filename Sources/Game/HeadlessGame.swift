// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore

/// A game played from a list of samples with no screen, no threads and no
/// clock: the physics steps once per tick, fed every sample recorded up to
/// that tick's time, as fast as the machine goes. The same samples give the
/// same game, bit for bit, on any machine that does IEEE arithmetic the
/// same way (every machine Swift runs on), which `play --headless` shows
/// with a hash of the ball's path.
public enum HeadlessGame {
    public struct Outcome: Sendable, Equatable {
        public var won: Bool
        /// The last life was lost.
        public var lost: Bool
        /// Seconds of play: to the exit when won, to the last life when lost, else to the end of the samples.
        public var time: Double
        public var catches: Int
        public var lives: Int
        public var score: Int
        public var pelletsLeft: Int
        public var steps: Int
        /// FNV-1a (64 bits) over the bit patterns of the ball's position after every step.
        public var trajectoryHash: UInt64

        /// One line of JSON: `{"won":…,"lost":…,"time_s":…,"catches":…,"lives":…,"score":…,"pellets_left":…,"steps":…,"trajectory_hash":"…"}`.
        public var jsonLine: String {
            let hex = String(trajectoryHash, radix: 16)
            return "{\"won\":\(won),\"lost\":\(lost),\"time_s\":\(time),\"catches\":\(catches),\"lives\":\(lives),"
                + "\"score\":\(score),\"pellets_left\":\(pelletsLeft),\"steps\":\(steps),"
                + "\"trajectory_hash\":\"\(String(repeating: "0", count: 16 - hex.count) + hex)\"}"
        }
    }

    /// Plays `level` from `samples` (in time order) until the exit is
    /// reached, the last life is lost, or the samples run out; `onStep` sees
    /// each step's snapshot with the time of the last sample folded in.
    public static func run(level: Level, samples: [MotionSample], rate: Double = PhysicsLoop.defaultRate,
                           parameters: PhysicsParameters = PhysicsParameters(), rules: GameRules = GameRules(),
                           estimator: TiltEstimator = TiltEstimator(),
                           onStep: (WorldSnapshot, _ lastSample: Int64) -> Void = { _, _ in }) -> Outcome {
        let ring = SPSCRing<MotionSample>(capacity: 1024)
        let physics = PhysicsLoop(level: level, samples: ring, rate: rate, parameters: parameters, rules: rules,
                                  estimator: estimator)
        let step = Int64((1e9 / rate).rounded())
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: Double) {
            var bits = value.bitPattern
            for _ in 0..<8 {
                hash = (hash ^ (bits & 0xFF)) &* 0x0000_0100_0000_01B3
                bits >>= 8
            }
        }
        var next = 0
        var steps = 0
        var snapshot = physics.snapshots.read().value
        func outcome() -> Outcome {
            Outcome(won: snapshot.status == .won, lost: snapshot.status == .lost, time: snapshot.elapsed,
                    catches: snapshot.catches, lives: snapshot.lives, score: snapshot.score,
                    pelletsLeft: snapshot.pellets.count, steps: steps, trajectoryHash: hash)
        }
        guard let first = samples.first else { return outcome() }
        // The first tick comes one step after the first sample, as it would live.
        var now = first.timestamp
        while next < samples.count {
            now += step
            while next < samples.count, samples[next].timestamp <= now {
                if !ring.push(samples[next]) {
                    physics.tick(elapsed: 0)   // drains without stepping: nothing is lost
                    continue
                }
                next += 1
            }
            physics.tick(elapsed: step)
            steps += 1
            snapshot = physics.snapshots.read().value
            if next > 0 { onStep(snapshot, samples[next - 1].timestamp) }
            mix(snapshot.ball.x)
            mix(snapshot.ball.y)
            if snapshot.status == .won || snapshot.status == .lost { break }
        }
        return outcome()
    }
}
