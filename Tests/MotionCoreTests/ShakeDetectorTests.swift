// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import LibC

@Suite("Shake detection on user acceleration: threshold, axis and sign, refractory time")
struct ShakeDetectorTests {
    static let period: Int64 = 5_000_000  // 200 Hz

    /// Feeds `pushes` (one user acceleration per sample) and returns the events.
    func shakes(_ pushes: [Vector3], detector: ShakeDetector = ShakeDetector()) -> [Shake] {
        var detector = detector
        return pushes.enumerated().compactMap { i, a in detector.add(userAcceleration: a, at: Int64(i) * Self.period) }
    }

    /// A hand's shake: a half sine up to `peak` and back, then the same the other way, over `seconds`.
    func handShake(along axis: Vector3, peak: Double, seconds: Double = 0.2) -> [Vector3] {
        let n = Int(seconds * 200)
        return (0 ..< n).map { i -> Vector3 in
            let phase = 2 * Double.pi * Double(i) / Double(n)
            return axis * (peak * sin(phase))
        }
    }

    @Test("below 1.3 g nothing fires, however long; just past it, one event")
    func threshold() {
        let gentle = handShake(along: Vector3(1, 0, 0), peak: 1.25 * standardGravity, seconds: 2)
        #expect(shakes(gentle).isEmpty)
        let firm = handShake(along: Vector3(1, 0, 0), peak: 1.35 * standardGravity)
        #expect(shakes(firm).count == 1)
    }

    @Test("the event names the dominant axis and the sign of the push that crossed first",
          arguments: [(Vector3(1, 0, 0), Shake.Axis.x, true), (Vector3(-1, 0, 0), .x, false),
                      (Vector3(0.3, 1, 0), .y, true), (Vector3(0, -1, 0.4), .y, false),
                      (Vector3(0, 0, 1), .z, true), (Vector3(0.2, -0.3, -1), .z, false)])
    func axisAndSign(direction: Vector3, axis: Shake.Axis, positive: Bool) throws {
        let events = shakes(handShake(along: direction, peak: 2 * standardGravity))
        let shake = try #require(events.first)
        #expect(events.count == 1)
        #expect(shake.axis == axis)
        #expect(shake.positive == positive)
        #expect(abs(shake.acceleration) >= 1.3 * standardGravity)
        #expect((shake.acceleration > 0) == positive)
    }

    @Test("the six directions are six different colours' numbers")
    func directions() {
        let all = Shake.Axis.allCases.flatMap { axis in [true, false].map { Shake(axis: axis, positive: $0, acceleration: 0, timestamp: 0).direction } }
        #expect(Set(all) == Set(0 ..< 6))
    }

    @Test("within the refractory time a second shake is ignored; after it, it fires")
    func refractory() {
        let quiet = [Vector3](repeating: .zero, count: 10)  // 50 ms
        let shake = handShake(along: Vector3(0, 1, 0), peak: 2 * standardGravity)  // 200 ms
        let soon = shakes(shake + quiet + shake)             // second starts 250 ms after the first
        #expect(soon.count == 1)
        let pause = [Vector3](repeating: .zero, count: 70)  // 350 ms
        let later = shakes(shake + pause + shake)            // crossings 550 ms apart
        #expect(later.count == 2)
        var longer = ShakeDetector.Parameters()
        longer.refractoryTime = 1
        #expect(shakes(shake + pause + shake, detector: ShakeDetector(parameters: longer)).count == 1)
    }

    @Test("a push held past the threshold is one shake, not one per refractory period")
    func heldPush() {
        let held = [Vector3](repeating: Vector3(0, 0, 2 * standardGravity), count: 600)  // 3 s
        #expect(shakes(held).count == 1)
        let released = held + [Vector3](repeating: .zero, count: 5) + held
        #expect(shakes(released).count == 2)
    }

    @Test("a board lying still, or tilted, is no shake: gravity is not user acceleration")
    func gravityIsNoShake() {
        var filter = AttitudeFilter()
        var detector = ShakeDetector()
        var fired = 0
        for i in 0 ..< 400 {
            let t = Int64(i) * Self.period
            let force = .zero - TiltBoard.gravity(roll: 0.6, pitch: -0.4)
            let sample = MotionSample(timestamp: t, acceleration: force, fields: [.acceleration, .rotationRate])
            filter.add(sample)
            if detector.add(userAcceleration: filter.motion(for: sample).userAcceleration, at: t) != nil { fired += 1 }
        }
        #expect(fired == 0)
    }
}
