// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("Impossible samples")
struct SamplePlausibilityTests {
    func accel(_ t: Int64, _ v: Vector3) -> MotionSample { MotionSample(timestamp: t, acceleration: v, fields: .acceleration) }

    /// Feeds `samples` through one judge and returns its verdicts.
    func verdicts(_ samples: [MotionSample]) -> [Bool] {
        var judge = SamplePlausibility()
        return samples.map { judge.accept($0) }
    }

    @Test("ordinary readings pass, equal timestamps too")
    func ordinary() {
        #expect(verdicts([
            accel(10, Vector3(0, 0, 9.8)), accel(10, Vector3(0, 0, 9.8)),
            MotionSample(timestamp: 11, rotationRate: Vector3(30, -30, 0), fields: .rotationRate),
        ]) == [true, true, true])
    }

    @Test("a timestamp before the previous one is refused, and does not move the clock back")
    func backwards() {
        #expect(verdicts([accel(100, .zero), accel(99, .zero), accel(100, .zero)]) == [true, false, true])
    }

    @Test("values beyond any sensor's range, or not numbers, are refused")
    func outOfRange() {
        #expect(verdicts([
            accel(1, Vector3(0, 0, 5000)), accel(2, Vector3(.nan, 0, 0)),
            MotionSample(timestamp: 3, rotationRate: Vector3(0, 250, 0), fields: .rotationRate),
            accel(4, Vector3(0, 0, 9.8)),
        ]) == [false, false, false, true])
    }

    @Test("a field the sensor did not measure is not judged")
    func absentFieldIgnored() {
        #expect(verdicts([MotionSample(timestamp: 1, acceleration: .zero, rotationRate: Vector3(.nan, 0, 0), fields: .acceleration)]) == [true])
    }
}
