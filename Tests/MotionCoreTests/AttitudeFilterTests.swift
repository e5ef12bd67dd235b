// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import LibC

/// The attitude filter on motions whose truth is known: a board tilted by
/// hand (`TiltBoard`, whose gyroscope and accelerometer agree), with bias,
/// jolts, other rates and uneven timing added.
@Suite("Attitude filter")
struct AttitudeFilterTests {
    /// Angle in degrees between two directions.
    func degrees(_ a: Vector3, _ b: Vector3) -> Double {
        acos(min(1, max(-1, a.dot(b) / (a.length * b.length)))) * 180 / .pi
    }

    /// Runs a hand-tilted board for `seconds` at `rate`, commanding `tilt(t)`
    /// (roll, pitch), adding `bias` to the gyro and `extra(t)` to the force;
    /// returns the worst inclination error after `settle` s and the filter.
    func run(seconds: Double, rate: Double, bias: Vector3 = .zero, settle: Double = 1,
             jitter: Double = 0, tilt: (Double) -> (Double, Double), extra: (Double) -> Vector3 = { _ in .zero })
        -> (worst: Double, filter: AttitudeFilter) {
        var board = TiltBoard()
        board.slewRate = 60 * .pi / 180
        var filter = AttitudeFilter()
        var t = 0.0, worst = 0.0
        var seed: UInt64 = 42
        while t < seconds {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let wobble = jitter * (Double(seed >> 11) / Double(1 << 53) - 0.5)
            let dt = (1 / rate) * (1 + wobble)
            (board.targetRoll, board.targetPitch) = tilt(t)
            // A sample is stamped at the end of the interval its rotation rate covers.
            t += dt
            var sample = board.advance(by: dt, timestamp: Int64(t * 1e9))
            sample.rotationRate = sample.rotationRate + bias
            let trueUp = sample.acceleration
            sample.acceleration = sample.acceleration + extra(t)
            filter.add(sample)
            if t >= settle { worst = max(worst, degrees(filter.up, trueUp)) }
        }
        return (worst, filter)
    }

    @Test("a board held at a tilt: the estimate is within a degree within a second of start")
    func converges() {
        let (worst, filter) = run(seconds: 3, rate: 200, tilt: { _ in (0.35, -0.2) })
        #expect(worst < 1, "worst \(worst)°")
        let g = filter.motion(for: MotionSample(timestamp: 0, fields: [])).gravity
        #expect(abs(g.length - standardGravity) < 1e-9)
    }

    @Test("a flat board's gravity points down the board: about (0, 0, −9.81)")
    func flat() {
        let (_, filter) = run(seconds: 1, rate: 100, tilt: { _ in (0, 0) })
        let g = filter.motion(for: MotionSample(timestamp: 0, fields: [])).gravity
        #expect((g - Vector3(0, 0, -standardGravity)).length < 0.05)
    }

    @Test("slow tilting like a player's follows within a couple of degrees, at 25 Hz, 200 Hz and 1 kHz",
          arguments: [25.0, 200.0, 1000.0])
    func follows(_ rate: Double) {
        let (worst, _) = run(seconds: 10, rate: rate, tilt: { t in (0.4 * sin(t * 0.9), 0.3 * sin(t * 0.6 + 1)) })
        #expect(worst < 2, "worst \(worst)° at \(rate) Hz")
    }

    @Test("uneven timing (evdev's) changes nothing that matters")
    func unevenTiming() {
        let (worst, _) = run(seconds: 10, rate: 250, jitter: 1.2, tilt: { t in (0.4 * sin(t), 0.2 * cos(t * 0.7)) })
        #expect(worst < 2, "worst \(worst)°")
    }

    @Test("a 2 g knock (pushed, then stopped: no net change of velocity) does not move the tilt once the board has rested")
    func joltRejected() {
        // Before the board has rested (or turned) the gyroscope's bias is
        // unknown, and the accelerometer is averaged for half a second only.
        let (worst, _) = run(seconds: 5, rate: 200, tilt: { _ in (0.3, 0.1) },
                             extra: { t in
                                 guard (3.0 ..< 3.15).contains(t) else { return .zero }
                                 return Vector3(t < 3.075 ? 2 * standardGravity : -2 * standardGravity, 0, 0)
                             })
        #expect(worst < 1, "worst \(worst)°")
    }

    @Test("a gyroscope bias of 2°/s is learnt at rest, and the tilt stays right")
    func biasAtRest() {
        let bias = Vector3(2, -1.5, 1) * (.pi / 180)
        let (worst, filter) = run(seconds: 20, rate: 200, bias: bias, tilt: { _ in (0.2, 0.3) })
        #expect((filter.bias - bias).length < 0.1 * .pi / 180, "learnt \(filter.bias)")
        #expect(worst < 2, "worst \(worst)°")
    }

    @Test("a gyroscope bias of 1.5°/s while the board keeps moving: the tilt stays within a few degrees")
    func biasMoving() {
        let bias = Vector3(1.5, 1.5, 0) * (.pi / 180)
        let (worst, _) = run(seconds: 40, rate: 200, bias: bias, settle: 5,
                             tilt: { t in (0.35 * sin(t * 0.8), 0.3 * sin(t * 0.5 + 1)) })
        #expect(worst < 3, "worst \(worst)°")
    }

    @Test("a chip split over two devices: accel-only and gyro-only samples, each stamped on its own, fuse")
    func splitChip() {
        var board = TiltBoard()
        var filter = AttitudeFilter()
        var worst = 0.0
        for i in 0 ..< 2000 {
            let t = Double(i) / 200
            (board.targetRoll, board.targetPitch) = (0.4 * sin(t), 0.2)
            let s = board.advance(by: 1.0 / 200, timestamp: Int64(t * 1e9))
            // The gyro half's sample is stamped a little later than the accel half's.
            filter.add(MotionSample(timestamp: s.timestamp, acceleration: s.acceleration, fields: .acceleration))
            filter.add(MotionSample(timestamp: s.timestamp + 300_000, rotationRate: s.rotationRate, fields: .rotationRate))
            if t > 1 { worst = max(worst, degrees(filter.up, s.acceleration)) }
        }
        #expect(worst < 2, "worst \(worst)°")
    }

    @Test("user acceleration is what the accelerometer measured beyond gravity; rotation rate has the bias taken out")
    func motionFields() {
        var filter = AttitudeFilter()
        filter.seedBias(Vector3(0.02, -0.01, 0.005))
        filter.add(MotionSample(timestamp: 0, acceleration: Vector3(0, 0, standardGravity), fields: .acceleration))
        let push = MotionSample(timestamp: 5_000_000, acceleration: Vector3(1, 0, standardGravity),
                                rotationRate: Vector3(0.1, 0, 0), fields: [.acceleration, .rotationRate])
        let m = filter.motion(for: push)
        #expect((m.userAcceleration - Vector3(1, 0, 0)).length < 1e-6)
        #expect(filter.bias == Vector3(0.02, -0.01, 0.005))
        #expect(m.rotationRate == Vector3(0.08, 0.01, -0.005))
    }

    @Test("an estimate gone wrong (a tilt the gyroscope missed) is set right by the accelerometer once the board rests")
    func recovers() {
        var filter = AttitudeFilter()
        let level = Vector3(0, 0, standardGravity)
        let tilted = .zero - TiltBoard.gravity(roll: 0.35, pitch: 0)
        for i in 0 ..< 1600 {
            // Level for 2 s, then tilted by 20° with the gyroscope reading nothing.
            let force = i < 400 ? level : tilted
            filter.add(MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: force, rotationRate: .zero,
                                    fields: [.acceleration, .rotationRate]))
        }
        #expect(degrees(filter.up, tilted) < 1, "still \(degrees(filter.up, tilted))° off after 6 s")
    }

    @Test("carried without tilting: pushed at 2 m/s² one way for a second and back, again and again, the tilt holds")
    func carried() {
        // A hand walking the board to and fro: ±1 m of travel, the push
        // reversing every second, for 20 s; the gyroscope reads no turn.
        let (worst, _) = run(seconds: 24, rate: 200, settle: 2, tilt: { _ in (0.2, -0.1) }, extra: { t in
            guard t > 4 else { return .zero }
            let phase = Int((t - 4).rounded(.down)) % 4
            return Vector3(phase == 0 || phase == 3 ? 2 : -2, 0, 0)
        })
        // A reading-by-reading filter would lean by atan(2 / 9.81) = 11.5°.
        #expect(worst < 2, "worst \(worst)°")
    }

    @Test("a bias remembered from an earlier run is used at once, and counts as learnt")
    func seededBias() {
        var filter = AttitudeFilter()
        #expect(!filter.hasLearntBias)
        filter.seedBias(Vector3(0.03, 0, -0.02))
        #expect(filter.bias == Vector3(0.03, 0, -0.02))
        filter.seedBias(Vector3(1, .nan, -1))
        #expect(filter.bias == Vector3(filter.parameters.maxBias, 0, -filter.parameters.maxBias))
    }

    @Test("a bias is learnt, and said to be, after a few seconds at rest, and not while the board turns slowly")
    func learntOnlyAtRest() {
        let bias = Vector3(3, -2, 1) * (.pi / 180)
        // Turning steadily at 4°/s about a level axis looks like rest to a
        // gyroscope alone; the accelerometer sees the board tilt.
        var filter = AttitudeFilter()
        var board = TiltBoard()
        board.slewRate = 4 * .pi / 180
        for i in 1 ... 1000 {
            board.targetRoll = 0.7
            var s = board.advance(by: 0.005, timestamp: Int64(i) * 5_000_000)
            s.rotationRate = s.rotationRate + bias
            filter.add(s)
            #expect(!filter.isAtRest, "at rest at \(Double(i) * 0.005) s while turning")
            if filter.isAtRest { break }
        }
        let (_, still) = run(seconds: 6, rate: 200, bias: bias, tilt: { _ in (0.2, 0.3) })
        #expect(still.isAtRest && still.hasLearntBias)
        #expect((still.bias - bias).length < 0.1 * .pi / 180, "learnt \(still.bias)")
    }
}
