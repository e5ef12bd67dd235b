// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import LibC

/// The magnetometer in the attitude filter, on boards whose truth is known:
/// one turning at constant rates about a tilted axis, reading exact rates, the
/// force that holds it up and the Earth's field (x north, z up, dipping 63°).
@Suite("Nine-axis fusion")
struct NineAxisTests {
    static let earthField = Vector3(20, 0, -40)
    static let rate = 100.0

    /// The board's attitude (board → earth, x north) at `t`: tilted 25° about
    /// x, then turning about its own (0.3, 0.2, 1) at 30 °/s.
    static func truth(_ t: Double) -> Quaternion {
        let tilt = Quaternion(axis: Vector3(1, 0, 0), angle: 25 * .pi / 180)
        return (tilt * Quaternion(rotationVector: spin * t)).normalized
    }
    static let spin = Vector3(0.3, 0.2, 1) / Vector3(0.3, 0.2, 1).length * (30 * .pi / 180)

    /// A board turned about every axis, as a hand turning it through a figure
    /// of eight: heading round and round, tilting to and fro about two axes.
    static func tumbling(_ t: Double) -> Quaternion {
        Quaternion(axis: Vector3(0, 0, 1), angle: 0.6 * t)
            * Quaternion(axis: Vector3(1, 0, 0), angle: 1.0 * sin(0.9 * t))
            * Quaternion(axis: Vector3(0, 1, 0), angle: 0.8 * sin(0.53 * t))
    }

    /// Heading of `q` less heading of `truth`, degrees, as the turn about earth z of q ⊗ truth⁻¹.
    static func headingError(_ q: Quaternion, _ truth: Quaternion) -> Double {
        let e = q * truth.conjugate
        var a = 2 * atan2(e.z, e.w) * 180 / .pi
        while a > 180 { a -= 360 }
        while a < -180 { a += 360 }
        return a
    }

    /// Runs the board for `seconds`; `field(t, board field)` may disturb what the
    /// magnetometer reads, `bias` is added to the gyroscope. Calls `check` per sample.
    /// The board's rate is what turns `truth(t − dt)` into `truth(t)`.
    static func run(seconds: Double, truth: (Double) -> Quaternion = truth, bias: Vector3 = .zero,
                    filter: inout AttitudeFilter, field: (Double, Vector3) -> Vector3 = { $1 },
                    check: (Double, AttitudeFilter) -> Void = { _, _ in }) {
        let n = Int(seconds * rate)
        for i in 1 ... n {
            let t = Double(i) / rate
            let q = truth(t)
            let step = truth(t - 1 / rate).conjugate * q
            let v = Vector3(step.x, step.y, step.z)
            let turn = v.length > 0 ? v / v.length * (2 * atan2(v.length, step.w) * rate) : .zero
            let sample = MotionSample(timestamp: Int64(t * 1e9),
                                      acceleration: q.conjugate.rotate(Vector3(0, 0, standardGravity)),
                                      rotationRate: turn + bias,
                                      magneticField: field(t, q.conjugate.rotate(earthField)),
                                      fields: .all)
            filter.add(sample)
            check(t, filter)
        }
    }

    @Test("x points to magnetic north, and stays there while the gyroscope's heading drifts")
    func findsNorth() {
        var filter = AttitudeFilter()
        // A bias about the vertical: the six-axis heading cannot see it in motion.
        var worstNorth = 0.0, lastArbitrary = 0.0
        Self.run(seconds: 60, bias: Vector3(0, 0, 0.5 * .pi / 180), filter: &filter, check: { t, f in
            guard t > 5 else { return }
            worstNorth = max(worstNorth, abs(Self.headingError(f.attitude(in: .xMagneticNorthZVertical), Self.truth(t))))
            lastArbitrary = Self.headingError(f.attitude, Self.truth(t))
        })
        #expect(filter.hasNorth)
        #expect(worstNorth < 3, "heading error against north up to \(worstNorth)°")
        // The gyroscope-only frame wandered (its start is arbitrary, so only its change is asked for).
        #expect(abs(lastArbitrary) > 5, "the six-axis heading stayed within \(lastArbitrary)° of north")
    }

    @Test("The magnetometer never changes the inclination")
    func inclinationUntouched() {
        var filter = AttitudeFilter()
        var worst = 0.0
        Self.run(seconds: 20, filter: &filter, check: { _, f in
            for frame in AttitudeReferenceFrame.allCases {
                let up = f.attitude(in: frame).conjugate.rotate(Vector3(0, 0, 1))
                worst = max(worst, (up - f.up).length)
            }
        })
        #expect(worst < 1e-9)
    }

    @Test("A magnet brought near is ignored, and the heading holds")
    func rejectsDisturbance() {
        var filter = AttitudeFilter()
        var worst = 0.0, disturbedSeen = false
        Self.run(seconds: 60, filter: &filter, field: { t, earth in
            // 15 s of an extra 30 µT along earth y (turned into the board), from 30 s.
            (30 ..< 45).contains(t) ? earth + Self.truth(t).conjugate.rotate(Vector3(0, 30, 0)) : earth
        }, check: { t, f in
            if (31 ..< 45).contains(t) { disturbedSeen = disturbedSeen || f.isMagneticallyDisturbed }
            if t > 20 { worst = max(worst, abs(Self.headingError(f.attitude(in: .xMagneticNorthZVertical), Self.truth(t)))) }
        })
        #expect(disturbedSeen)
        // Taken in, that field would turn north by atan(30/20) = 56°.
        #expect(worst < 3, "heading error up to \(worst)°")
    }

    @Test("xArbitraryCorrectedZVertical starts where the six-axis frame did and does not drift")
    func correctedFrame() {
        var filter = AttitudeFilter()
        var first: Double?, worstChange = 0.0
        Self.run(seconds: 60, bias: Vector3(0, 0, 0.5 * .pi / 180), filter: &filter, check: { t, f in
            let e = Self.headingError(f.attitude(in: .xArbitraryCorrectedZVertical), Self.truth(t))
            if first == nil, t > 5 { first = e }
            if let first { worstChange = max(worstChange, abs(e - first)) }
        })
        #expect(worstChange < 3, "the corrected frame's heading moved by \(worstChange)°")
        // At the first reading it is the six-axis frame.
        var fresh = AttitudeFilter()
        Self.run(seconds: 0.02, filter: &fresh)
        #expect(abs(Self.headingError(fresh.attitude(in: .xArbitraryCorrectedZVertical), fresh.attitude)) < 0.5)
    }

    @Test("Without a magnetometer every frame is the six-axis one")
    func noMagnetometer() {
        var filter = AttitudeFilter()
        for i in 1 ... 200 {
            let t = Double(i) / 100
            filter.add(MotionSample(timestamp: Int64(t * 1e9), acceleration: Vector3(0, 0, standardGravity),
                                    rotationRate: Vector3(0, 0, 0.1), fields: [.acceleration, .rotationRate]))
        }
        #expect(!filter.hasNorth)
        #expect(filter.attitude(in: .xMagneticNorthZVertical) == filter.attitude)
    }

    @Test("An offset riding with the board is learnt while it turns, and only then")
    func hardIron() {
        var parameters = AttitudeFilter.Parameters()
        parameters.hardIron.isEnabled = true
        let offset = Vector3(12, -6, 35)
        // Turning about one axis only: many spheres fit a circle, so nothing is learnt.
        var oneAxis = AttitudeFilter(parameters: parameters)
        for i in 1 ... 3000 {
            let t = Double(i) / Self.rate
            let q = Quaternion(rotationVector: Vector3(0, 0, 1) * (40 * .pi / 180 * t))
            oneAxis.add(MotionSample(timestamp: Int64(t * 1e9), acceleration: Vector3(0, 0, standardGravity),
                                     rotationRate: Vector3(0, 0, 40 * .pi / 180),
                                     magneticField: q.conjugate.rotate(Self.earthField) + offset, fields: .all))
        }
        #expect(oneAxis.learntMagneticOffset == .zero, "learnt \(oneAxis.learntMagneticOffset) from a circle")

        // Turning about every axis (a figure of eight).
        var filter = AttitudeFilter(parameters: parameters)
        var worstLate = 0.0
        Self.run(seconds: 60, truth: Self.tumbling, filter: &filter, field: { _, earth in earth + offset }, check: { t, f in
            if t > 55 { worstLate = max(worstLate, abs(Self.headingError(f.attitude(in: .xMagneticNorthZVertical), Self.tumbling(t)))) }
        })
        #expect((filter.learntMagneticOffset - offset).length < 0.5, "learnt \(filter.learntMagneticOffset)")
        #expect(!filter.isMagneticallyDisturbed)
        #expect(worstLate < 3, "heading error up to \(worstLate)° with the offset learnt")
    }

    @Test("A magnet taken off: the offset goes back to zero within seconds, before a new fit over the whole window could")
    func hardIronGoesHome() {
        let offset = Vector3(12, -6, 35)
        var filter = AttitudeFilter()
        var learnt = Vector3.zero, goneAt: Double?
        Self.run(seconds: 70, truth: Self.tumbling, filter: &filter, field: { t, earth in t < 60 ? earth + offset : earth }, check: { t, f in
            if t < 60 { learnt = f.learntMagneticOffset } else if goneAt == nil, f.learntMagneticOffset == .zero { goneAt = t }
        })
        #expect((learnt - offset).length < 0.5, "learnt \(learnt) with the magnet on")
        // The window is 10 s: a refit could not drop the old readings before 70 s.
        #expect(goneAt.map { $0 < 65 } == true, "still \(filter.learntMagneticOffset) at 70 s")
        let disturbed = filter.isMagneticallyDisturbed
        #expect(!disturbed, "the field without the magnet should be taken as the Earth's again")
    }

    @Test("The offset learnt while turning is folded into the stored calibration, for keeping, and only once it fits well")
    func refinedCalibration() {
        // Soft iron S = I + a·uuᵀ, whose inverse is I − a/(1+a)·uuᵀ: the chip reads S⁻¹·field + offset.
        let u = Vector3(1, 1, 0) / 2.0.squareRoot(), a = 0.5
        func soft(_ k: Double) -> (Vector3, Vector3, Vector3) {
            (Vector3(1, 0, 0) + u * (k * u.x), Vector3(0, 1, 0) + u * (k * u.y), Vector3(0, 0, 1) + u * (k * u.z))
        }
        let inverse = soft(-a / (1 + a))
        func raw(_ field: Vector3, offset: Vector3) -> Vector3 {
            Vector3(inverse.0.dot(field), inverse.1.dot(field), inverse.2.dot(field)) + offset
        }
        // Calibrated once with the right soft iron; the offset has moved since (a new case, a screw).
        let trueOffset = Vector3(14, -9, 30)
        var filter = AttitudeFilter()
        filter.magnetometerCalibration = MagnetometerCalibration(offset: Vector3(-6, -8, 22), softIron: soft(a), accuracy: .high)
        #expect(filter.refinedMagnetometerCalibration == nil, "nothing learnt yet")
        Self.run(seconds: 60, truth: Self.tumbling, filter: &filter, field: { _, earth in raw(earth, offset: trueOffset) })
        let refined = filter.refinedMagnetometerCalibration
        #expect(refined.map { ($0.offset - trueOffset).length < 0.5 } == true, "refined \(String(describing: refined))")
        #expect(refined.map { $0.softIron.0 == soft(a).0 && $0.softIron.2 == soft(a).2 } == true, "the soft iron is kept")
        #expect((refined?.accuracy ?? .uncalibrated) >= .medium)
        // Applied to any reading, the refined calibration gives back the Earth's field in the board.
        for angle in stride(from: 0.0, to: 6, by: 0.7) {
            let board = Quaternion(axis: Vector3(0.2, 0.9, 0.4) / Vector3(0.2, 0.9, 0.4).length, angle: angle).conjugate.rotate(Self.earthField)
            let back = refined?.apply(raw(board, offset: trueOffset)) ?? .zero
            #expect((back - board).length < 0.5, "\(back) for \(board)")
        }

        // Turning about one axis only never makes a fit, so nothing is offered for keeping.
        var oneAxis = AttitudeFilter()
        Self.run(seconds: 30, truth: { t in Quaternion(rotationVector: Vector3(0, 0, 1) * (0.7 * t)) }, filter: &oneAxis,
                 field: { _, earth in earth + trueOffset })
        #expect(oneAxis.refinedMagnetometerCalibration == nil)
    }

    @Test("Without a gyroscope, the magnetometer makes a tilt-compensated compass: north, and the heading, through any tilt")
    func tiltCompensatedCompass() {
        // Held tilted 30° about x then about y, at four headings, a few seconds each.
        for (heading, tilt) in [(0.0, Vector3(1, 0, 0)), (70.0, Vector3(0, 1, 0)), (-135.0, Vector3(1, 0, 0)), (160.0, Vector3(0.6, 0.8, 0))] {
            let truth = (Quaternion(axis: Vector3(0, 0, 1), angle: heading * .pi / 180)
                         * Quaternion(axis: tilt, angle: 30 * .pi / 180)).normalized
            var processor = MotionProcessor(referenceFrame: .xMagneticNorthZVertical)
            var motion = FusedMotion()
            for i in 1 ... 300 {
                let sample = MotionSample(timestamp: Int64(i) * 10_000_000,
                                          acceleration: truth.conjugate.rotate(Vector3(0, 0, standardGravity)),
                                          magneticField: truth.conjugate.rotate(Self.earthField),
                                          fields: [.acceleration, .magneticField])
                motion = processor.add(sample).motion
            }
            #expect(abs(Self.headingError(motion.attitude, truth)) < 1, "heading \(heading)°: off by \(Self.headingError(motion.attitude, truth))°")
            // The top edge (y) of a board turned `heading` anticlockwise from north points `heading` west of north.
            let expected = FusedMotion.heading(of: truth)
            let got = motion.heading ?? .nan
            #expect(abs(got - expected) < 1 || abs(abs(got - expected) - 360) < 1, "heading \(got)°, expected \(expected)°")
        }
        // In the arbitrary frame there is no north (LinuxMotion gives CoreMotion's −1).
        var arbitrary = MotionProcessor(referenceFrame: .xArbitraryZVertical)
        let motion = arbitrary.add(MotionSample(timestamp: 1, acceleration: Vector3(0, 0, standardGravity),
                                                magneticField: Self.earthField, fields: [.acceleration, .magneticField])).motion
        #expect(motion.heading == nil)
    }

    @Test("Without a gyroscope, a board lying still keeps the accelerometer's tilt: the magnetometer's noise does not shake it")
    func compassTiltAtRest() {
        let q = Quaternion(axis: Vector3(1, 0, 0), angle: 15 * .pi / 180)
        let up = q.conjugate.rotate(Vector3(0, 0, 1))
        // A degree of noise on the field's direction each reading, as BROAD's magnetometer has; a fixed sequence.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 2 * 0.03
        }
        var estimator = TiltEstimator()
        var squares = 0.0, count = 0.0
        for i in 1 ... 1000 {
            let t = Double(i) / 100
            let field = q.conjugate.rotate(Self.earthField) + Vector3(noise(), noise(), noise()) * Self.earthField.length
            estimator.add(MotionSample(timestamp: Int64(t * 1e9), acceleration: up * standardGravity,
                                       magneticField: field, fields: [.acceleration, .magneticField]))
            let g = estimator.measuredGravity
            if t > 5 {
                let error = acos(min(1, -g.dot(up) / g.length)) * 180 / .pi
                squares += error * error
                count += 1
            }
        }
        let rms = (squares / count).squareRoot()
        #expect(rms < 0.1, "tilt error \(rms)° RMS at rest")
    }

    @Test("Without a gyroscope, the magnetometer keeps a push from tilting the board")
    func compassTilt() {
        // A board lying tilted 20° about x, still, then carried: pushed at 4 m/s²
        // for 0.75 s and stopped again (a hand's push starts and ends at rest).
        let q = Quaternion(axis: Vector3(1, 0, 0), angle: 20 * .pi / 180)
        let up = q.conjugate.rotate(Vector3(0, 0, 1))
        func worst(magnetometer: Bool) -> Double {
            var estimator = TiltEstimator()
            var worst = 0.0
            for i in 1 ... 600 {
                let t = Double(i) / 100
                let push = (3 ..< 3.75).contains(t) ? q.conjugate.rotate(Vector3(4, 0, 0))
                    : (3.75 ..< 4.5).contains(t) ? q.conjugate.rotate(Vector3(-4, 0, 0)) : .zero
                estimator.add(MotionSample(timestamp: Int64(t * 1e9),
                                           acceleration: up * standardGravity + push,
                                           magneticField: q.conjugate.rotate(Self.earthField),
                                           fields: magnetometer ? [.acceleration, .magneticField] : .acceleration))
                let g = estimator.measuredGravity
                if t > 1 { worst = max(worst, acos(min(1, -g.dot(up) / g.length)) * 180 / .pi) }
            }
            return worst
        }
        let alone = worst(magnetometer: false), helped = worst(magnetometer: true)
        #expect(alone > 15, "the accelerometer alone should follow the push (\(alone)°)")
        #expect(helped < alone / 3, "with the magnetometer \(helped)°, without \(alone)°")
    }
}
