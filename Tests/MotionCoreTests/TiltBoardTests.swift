// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("TiltBoard: the simulated sensor's physics")
struct TiltBoardTests {
    let g = standardGravity

    @Test("a level board reads +1 g on z and no rotation")
    func levelBoard() {
        var board = TiltBoard()
        let s = board.advance(by: 0.005, timestamp: 1)
        #expect(abs(s.acceleration.x) < 1e-12)
        #expect(abs(s.acceleration.y) < 1e-12)
        #expect(abs(s.acceleration.z - g) < 1e-12)
        #expect(s.rotationRate == .zero)
        #expect(s.fields == [.acceleration, .rotationRate])
        #expect(s.timestamp == 1)
    }

    @Test("lowering the right edge tilts gravity towards +x, so the accelerometer reads -x")
    func rollRight() {
        var board = TiltBoard()
        board.targetRoll = 20 * .pi / 180
        var s = board.advance(by: 0.005, timestamp: 0)
        for i in 1...200 { s = board.advance(by: 0.005, timestamp: Int64(i)) }
        #expect(abs(board.roll - 20 * .pi / 180) < 1e-12)
        #expect(s.acceleration.x < -3)
        #expect(abs(s.acceleration.y) < 1e-9)
        #expect(abs(s.acceleration.length - g) < 1e-9)
    }

    @Test("the commanded tilt is clamped to the board's limit")
    func clamped() {
        var board = TiltBoard()
        board.targetPitch = 2
        board.targetRoll = -2
        #expect(board.targetPitch == board.maxTilt)
        #expect(board.targetRoll == -board.maxTilt)
    }

    @Test("the board turns no faster than its slew rate")
    func slewLimited() {
        var board = TiltBoard()
        board.targetRoll = board.maxTilt
        _ = board.advance(by: 0.01, timestamp: 0)
        #expect(abs(board.roll - board.slewRate * 0.01) < 1e-12)
    }

    @Test("integrating the gyro reproduces the change of the accelerometer's gravity direction")
    func gyroConsistentWithAccelerometer() {
        var board = TiltBoard()
        board.targetRoll = 25 * .pi / 180
        board.targetPitch = -15 * .pi / 180
        let dt = 0.001
        var first = board.advance(by: dt, timestamp: 0)
        var f = first.acceleration   // specific force, turned by the gyro below
        for i in 1...600 {
            let s = board.advance(by: dt, timestamp: Int64(i))
            // A world-fixed vector seen from the board changes as v̇ = -ω × v.
            f = f - s.rotationRate.cross(f) * dt
            first = s
        }
        let err = (f - first.acceleration).length
        #expect(err < 0.01 * g, "gyro-integrated vector strays \(err) m/s² from the accelerometer's")
    }

    @Test("gravity(roll:pitch:) has length g for any tilt")
    func gravityLength() {
        for roll in stride(from: -0.5, through: 0.5, by: 0.1) {
            for pitch in stride(from: -0.5, through: 0.5, by: 0.1) {
                #expect(abs(TiltBoard.gravity(roll: roll, pitch: pitch).length - g) < 1e-9)
            }
        }
    }
}
