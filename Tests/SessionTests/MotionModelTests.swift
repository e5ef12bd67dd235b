// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Session
import Game
import Handoff
import MotionCore

@Suite("Screen models: the calibration square and ColorTilt")
struct MotionModelTests {
    func sample(_ i: Int, gravity: Vector3, rotation: Vector3? = nil, push: Vector3 = .zero) -> MotionSample {
        MotionSample(timestamp: Int64(i) * 10_000_000, acceleration: .zero - gravity + push, rotationRate: rotation ?? .zero,
                     fields: rotation == nil ? .acceleration : [.acceleration, .rotationRate])
    }

    /// Runs `model` in a loop fed `samples` at 100 Hz, one tick a sample.
    func run<M: MotionModel>(_ model: M, _ samples: [MotionSample], estimator: TiltEstimator = TiltEstimator(),
                             between: (Int, MotionModelLoop<M>) -> Void = { _, _ in }) -> MotionModelLoop<M> {
        let ring = SPSCRing<MotionSample>(capacity: 64)
        let loop = MotionModelLoop(model: model, samples: ring, rate: 100, estimator: estimator)
        for (i, s) in samples.enumerated() {
            ring.push(s)
            between(i, loop)
            loop.tick(elapsed: 10_000_000)
        }
        return loop
    }

    @Test("the square rolls downhill, right edge down → right, top edge down → up, and stops at the arena's edge")
    func squareRolls() {
        let right = run(CalibrationSquare(), (0..<300).map { sample($0, gravity: TiltBoard.gravity(roll: 0.3, pitch: 0)) })
        let r = right.snapshots.read().value
        #expect(r.x == 1 - r.size / 2 && abs(r.y - 0.5) < 1e-9)
        let up = run(CalibrationSquare(), (0..<300).map { sample($0, gravity: TiltBoard.gravity(roll: 0, pitch: 0.3)) })
        #expect(up.snapshots.read().value.y == up.snapshots.read().value.size / 2)
    }

    @Test("the tutorial's velocity model: speed never passes maximumVelocity; with no tilt, deceleration stops it")
    func velocityModel() {
        var p = CalibrationSquare.Parameters()
        p.maximumVelocity = 0.2
        var square = CalibrationSquare(parameters: p)
        let tilted = TiltBoard.gravity(roll: 0.5, pitch: 0)
        var last = square.snapshot.x
        for _ in 0..<20 {
            square.step(dt: 0.01, gravity: tilted)
            #expect(square.snapshot.x - last <= 0.2 * 0.01 + 1e-12)
            last = square.snapshot.x
        }
        let level = TiltBoard.gravity(roll: 0, pitch: 0)
        for _ in 0..<500 { square.step(dt: 0.01, gravity: level) }
        let settled = square.snapshot.x
        square.step(dt: 0.01, gravity: level)
        #expect(abs(square.snapshot.x - settled) < 1e-6)
    }

    @Test("a captured neutral makes the held tilt level: the square stays in the middle; Zero makes it roll again")
    func neutralInTheLoop() {
        let held = TiltBoard.gravity(roll: 0.25, pitch: -0.1)
        let samples = (0..<400).map { sample($0, gravity: held) }
        let loop = run(CalibrationSquare(), samples) { i, loop in
            if i == 100 { loop.changeReference(.captureCurrent); loop.send(.centre) }
        }
        let s = loop.snapshots.read().value
        #expect(abs(s.x - 0.5) < 1e-3 && abs(s.y - 0.5) < 1e-3, "\(s)")
        let status = loop.status.read().value
        #expect(status.referenceChanges == 1 && abs(status.calibration.reference.angleFromLevel - 0.268) < 0.01)
        let zeroed = run(CalibrationSquare(), samples) { i, loop in
            if i == 100 { loop.changeReference(.captureCurrent); loop.send(.centre) }
            if i == 200 { loop.changeReference(.level) }
        }
        #expect(zeroed.snapshots.read().value.x > 0.9)
    }

    @Test("ColorTilt: a shake picks the colour of its axis and sign; lean sets the intensity with the accelerometer on")
    func colorTilt() {
        // Level, then a 2 g push along −y, then leaning 22.5° (an accelerometer alone:
        // a step in tilt with a gyroscope reading nothing is no motion a board can make).
        var samples = (0..<100).map { sample($0, gravity: TiltBoard.gravity(roll: 0, pitch: 0)) }
        samples += (100..<103).map { sample($0, gravity: TiltBoard.gravity(roll: 0, pitch: 0), push: Vector3(0, -2 * standardGravity, 0)) }
        samples += (103..<400).map { sample($0, gravity: TiltBoard.gravity(roll: .pi / 8, pitch: 0)) }
        let loop = run(ColorTilt(), samples) { _, _ in }
        let s = loop.snapshots.read().value
        #expect(s.shakes == 1 && ColorTilt.colorNames[s.color] == "magenta")
        #expect(abs(s.intensity - 0.5) < 0.02, "22.5° of 45°: \(s.intensity)")
    }

    @Test("ColorTilt: with the accelerometer off, the rotation rate sets the intensity; both off shows the colour at full strength")
    func colorTiltGyroscope() {
        let turning = Vector3(0, 0, .pi)   // half a turn a second about z: the board stays level
        let samples = (0..<300).map { sample($0, gravity: TiltBoard.gravity(roll: 0, pitch: 0), rotation: turning) }
        let gyro = run(ColorTilt(), samples) { i, loop in if i == 0 { loop.send(.toggleAccelerometer) } }
        let s = gyro.snapshots.read().value
        #expect(!s.accelerometerOn && s.gyroscopeOn)
        #expect(abs(s.intensity - 0.5) < 0.05, "180°/s of 360: \(s.intensity)")
        let neither = run(ColorTilt(), samples) { i, loop in
            if i == 0 { loop.send(.toggleAccelerometer); loop.send(.toggleGyroscope) }
        }
        #expect(neither.snapshots.read().value.intensity == 1)
    }

    @Test("ColorTilt without a gyroscope: says so, and the gyroscope switch changes nothing")
    func noGyroscope() {
        let samples = (0..<200).map { sample($0, gravity: TiltBoard.gravity(roll: .pi / 8, pitch: 0)) }
        let loop = run(ColorTilt(), samples) { i, loop in if i == 10 { loop.send(.toggleGyroscope) } }
        let s = loop.snapshots.read().value
        #expect(!s.hasGyroscope && abs(s.intensity - 0.5) < 0.03)
    }
}
