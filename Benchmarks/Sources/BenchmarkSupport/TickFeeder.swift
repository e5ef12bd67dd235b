// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore
import Handoff

/// Plays the sensor's part for a physics-tick benchmark: before each tick it
/// pushes the next samples from `samples`, restamped on the sample period, so
/// every tick drains the same amount the real sensor thread would leave.
/// State lives in this struct (not in variables the benchmark closure
/// captures), which keeps runtime exclusivity checks out of the timed loop.
public struct TickFeeder {
    private let samples: [MotionSample]
    private var next = 0
    private var timestamp: Int64 = 0

    /// - Parameter samples: a power-of-two count, walked round-robin.
    public init(samples: [MotionSample]) {
        precondition(samples.count > 0 && samples.count & (samples.count - 1) == 0, "a power-of-two sample count")
        self.samples = samples
    }

    /// Pushes `samplesPerTick` samples into `ring`, then runs one tick of `loop`.
    @inline(__always)
    public mutating func tick(_ loop: PhysicsLoop, ring: SPSCRing<MotionSample>, samplesPerTick: Int) {
        for _ in 0..<samplesPerTick {
            var s = samples[next & (samples.count - 1)]
            s.timestamp = timestamp
            ring.push(s)
            next &+= 1
            timestamp &+= Fixtures.samplePeriod
        }
        loop.tick(elapsed: Fixtures.tickNanoseconds)
    }
}
