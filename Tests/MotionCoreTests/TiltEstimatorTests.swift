// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import LibC

@Suite("Tilt estimate: fused with a gyroscope, low-passed without")
struct TiltEstimatorTests {
    func degrees(_ a: Vector3, _ b: Vector3) -> Double {
        acos(min(1, max(-1, a.dot(b) / (a.length * b.length)))) * 180 / .pi
    }

    /// A board held still at a tilt for a second, then knocked along x: 2 g
    /// for 50 ms and −2 g for 50 ms as it is stopped (a push that moved the
    /// board and left it still has no net change of velocity).
    func jolted(withGyroscope: Bool) -> (before: Vector3, during: Vector3) {
        var estimator = TiltEstimator()
        let force = .zero - TiltBoard.gravity(roll: 0.3, pitch: 0.1)
        var before = Vector3.zero
        for i in 0 ..< 220 {
            let jolt = i >= 200 ? Vector3(i < 210 ? 2 * standardGravity : -2 * standardGravity, 0, 0) : .zero
            let fields: MotionSample.Fields = withGyroscope ? [.acceleration, .rotationRate] : .acceleration
            estimator.add(MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: force + jolt, fields: fields))
            if i == 199 { before = estimator.gravity }
        }
        return (before, estimator.gravity)
    }

    @Test("a sensor whose kernel scale is rounded (0.97 to 1.03 g at rest, an ADIS16505 reads 0.99 g) is no faulty sensor: same tilt, nothing refused", arguments: [0.97, 0.99, 1.0, 1.03])
    func roundedScale(gain: Double) {
        for withGyroscope in [true, false] {
            var estimator = TiltEstimator()
            var plausibility = SamplePlausibility()
            let force = (.zero - TiltBoard.gravity(roll: 0.3, pitch: 0.1)) * gain
            let fields: MotionSample.Fields = withGyroscope ? [.acceleration, .rotationRate] : .acceleration
            for i in 0 ..< 400 {
                let sample = MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: force, fields: fields)
                let accepted = plausibility.accept(sample)
                #expect(accepted)
                estimator.add(sample)
            }
            #expect(degrees(estimator.gravity, TiltBoard.gravity(roll: 0.3, pitch: 0.1)) < 0.5, "gain \(gain), gyroscope \(withGyroscope)")
        }
    }

    @Test("with a gyroscope, a 2 g jolt leaves the tilt where it was")
    func fusedRejectsJolt() {
        let (before, during) = jolted(withGyroscope: true)
        #expect(degrees(before, TiltBoard.gravity(roll: 0.3, pitch: 0.1)) < 0.5)
        #expect(degrees(before, during) < 0.5)
    }

    @Test("an accelerometer alone is low-passed: the same jolt leans the estimate (no gyroscope to tell it apart)")
    func lowPassFollowsJolt() {
        let (before, during) = jolted(withGyroscope: false)
        #expect(degrees(before, TiltBoard.gravity(roll: 0.3, pitch: 0.1)) < 0.5)
        #expect(degrees(before, during) > 5)
    }
}
