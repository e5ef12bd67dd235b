// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("LowPassFilter and TiltEstimator")
struct LowPassFilterTests {
    @Test("the first reading passes through unchanged")
    func firstReading() {
        var f = LowPassFilter(cutoffHz: 5)
        #expect(f.update(Vector3(1, 2, 3), timestamp: 100) == Vector3(1, 2, 3))
    }

    @Test("a step input reaches 1 - 1/e of the way after one time constant, whatever the sample rate")
    func timeConstantIndependentOfRate() {
        for rate in [100.0, 1000.0] {
            var f = LowPassFilter(timeConstant: 0.1)
            f.update(.zero, timestamp: 0)
            let period = Int64(1e9 / rate)
            var t: Int64 = 0
            var out = Vector3.zero
            while t < 100_000_000 {
                t += period
                out = f.update(Vector3(1, 0, 0), timestamp: t)
            }
            // Discrete first-order filter: close to the continuous 0.632 at these rates.
            #expect(abs(out.x - 0.632) < 0.03, "rate \(rate) Hz gave \(out.x)")
        }
    }

    @Test("time constant zero follows the input exactly")
    func noFiltering() {
        var f = LowPassFilter(timeConstant: 0)
        f.update(.zero, timestamp: 0)
        #expect(f.update(Vector3(5, 5, 5), timestamp: 10) == Vector3(5, 5, 5))
    }

    @Test("the estimator reports gravity as the opposite of the measured force")
    func estimatorGravity() {
        var e = TiltEstimator(cutoffHz: 5)
        #expect(e.gravity == .zero)
        e.add(MotionSample(timestamp: 0, acceleration: Vector3(0, 0, 9.8), fields: .acceleration))
        #expect(e.gravity == Vector3(0, 0, -9.8))
        #expect(e.samplesSeen == 1)
    }

    @Test("gyro-only samples leave the estimate alone")
    func gyroOnlyIgnored() {
        var e = TiltEstimator()
        e.add(MotionSample(timestamp: 0, rotationRate: Vector3(1, 1, 1), fields: .rotationRate))
        #expect(e.samplesSeen == 0)
        #expect(e.gravity == .zero)
    }
}
