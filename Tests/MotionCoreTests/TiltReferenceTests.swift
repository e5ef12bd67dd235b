// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import Foundation

@Suite("Neutral tilt (TiltReference)")
struct TiltReferenceTests {
    /// Gravity's pull in the board frame for a board whose right edge is lowered by `roll` and top edge lowered by `pitch`.
    func gravity(roll: Double, pitch: Double) -> Vector3 { TiltBoard.gravity(roll: roll, pitch: pitch) }

    func close(_ a: Vector3, _ b: Vector3, within: Double = 1e-9) -> Bool { (a - b).length < within }

    @Test("held at the neutral, the board reads as level; level reads as the neutral's opposite")
    func neutralReadsLevel() {
        for (roll, pitch) in [(0.2, 0.0), (0.0, -0.35), (0.25, 0.3), (-0.1, 0.05)] {
            let held = gravity(roll: roll, pitch: pitch)
            let reference = TiltReference(capturing: held)
            #expect(!reference.wasClamped)
            #expect(close(reference.apply(to: held), Vector3(0, 0, -standardGravity)), "\(roll), \(pitch)")
            // A tilt away from the neutral reads as the same tilt away from level.
            let away = reference.apply(to: gravity(roll: roll + 0.1, pitch: pitch))
            let angle = acos(-away.z / away.length)
            #expect(abs(angle - 0.1) < 0.02, "\(angle)")
        }
    }

    @Test("corrected gravity keeps its length, so the ball's top speed is the same at any neutral")
    func keepsLength() {
        let reference = TiltReference(capturing: gravity(roll: 0.3, pitch: 0.2))
        for roll in stride(from: -0.5, through: 0.5, by: 0.1) {
            let g = reference.apply(to: gravity(roll: roll, pitch: -0.2))
            #expect(abs(g.length - standardGravity) < 1e-9)
        }
    }

    @Test("a neutral further than 30° from level is clamped to 30° in the same direction, and says so")
    func clamped() {
        let steep = TiltReference(capturing: gravity(roll: 0, pitch: 50 * .pi / 180))
        #expect(steep.wasClamped)
        #expect(abs(steep.angleFromLevel - TiltReference.maximumAngle) < 1e-9)
        #expect(steep.edgeAngles.top < -29.9 && abs(steep.edgeAngles.right) < 1e-6)
        #expect(steep.summary == "30.0° from level (top edge down 30.0°), clamped to 30°", "\(steep.summary)")
        #expect(steep.shortSummary == "30.0° (top edge down 30.0°), clamped to 30°")
        let edge = TiltReference(capturing: gravity(roll: 29 * .pi / 180, pitch: 0))
        #expect(!edge.wasClamped)
        // Upside down, or lying on its edge: still a 30° neutral, never a flip.
        let flipped = TiltReference(neutralUp: Vector3(0, 0, -1))
        #expect(flipped.wasClamped && abs(flipped.angleFromLevel - TiltReference.maximumAngle) < 1e-9)
    }

    @Test("off leaves gravity alone but keeps the neutral; level corrects nothing")
    func offAndLevel() {
        var reference = TiltReference(capturing: gravity(roll: 0.2, pitch: 0.1))
        reference.isEnabled = false
        let g = gravity(roll: 0.05, pitch: 0.3)
        #expect(reference.apply(to: g) == g)
        #expect(reference.angleFromLevel > 0.2)
        #expect(close(TiltReference.level.apply(to: g), g))
        #expect(TiltReference.level.summary == "level")
    }

    @Test("the summary names the raised and lowered edges in degrees")
    func summary() {
        let reference = TiltReference(capturing: gravity(roll: 0, pitch: -20 * .pi / 180))
        #expect(reference.summary == "20.0° from level (top edge up 20.0°)")
        let both = TiltReference(capturing: gravity(roll: 10 * .pi / 180, pitch: 15 * .pi / 180))
        #expect(both.summary.contains("top edge down 15.0°, right edge down 10."), "\(both.summary)")
    }

    @Test("changes: capture takes the measured tilt, level zeroes, correction toggles, none keeps; no reading yet captures nothing")
    func changes() {
        let held = gravity(roll: 0.1, pitch: 0.2)
        let captured = ReferenceChange.captureCurrent.applied(to: .level, measuredGravity: held)
        #expect(close(captured.apply(to: held), Vector3(0, 0, -standardGravity)))
        #expect(ReferenceChange.level.applied(to: captured, measuredGravity: held) == .level)
        let off = ReferenceChange.correction(false).applied(to: captured, measuredGravity: held)
        #expect(!off.isEnabled && off.neutralUp == captured.neutralUp)
        #expect(ReferenceChange.none.applied(to: captured, measuredGravity: held) == captured)
        #expect(ReferenceChange.captureCurrent.applied(to: captured, measuredGravity: .zero) == captured)
    }

    @Test("the estimator measures gravity from the neutral and starts from a remembered gyroscope bias")
    func estimator() {
        let held = gravity(roll: 0.15, pitch: -0.1)
        let bias = Vector3(0.01, -0.02, 0.005)
        var estimator = TiltEstimator(reference: TiltReference(capturing: held), gyroBias: bias)
        #expect(estimator.attitude.bias == bias)
        for i in 0..<200 {
            estimator.add(MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: .zero - held, rotationRate: bias,
                                       fields: [.acceleration, .rotationRate]))
        }
        #expect(close(estimator.measuredGravity, held, within: 0.01))
        #expect(close(estimator.gravity, Vector3(0, 0, -standardGravity), within: 0.01))
    }
}
