// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A six-axis attitude filter: the gyroscope carries the attitude from one
/// sample to the next, and gravity, found by averaging the accelerometer in
/// a frame that does not turn with the board, keeps its inclination right.
///
/// The design is the one of Laidig & Seel's VQF ("VQF: Highly accurate IMU
/// orientation estimation with bias estimation and magnetic disturbance
/// rejection", Information Fusion 91, 2023), written anew here; what earned
/// each part is what it did on BROAD, a benchmark of real IMU recordings
/// with optical ground truth (Benchmarks/accuracy/broad.py):
///
/// - **The accelerometer is low-passed in an almost-inertial frame.** Each
///   reading is turned by the gyroscope's own attitude (`gyroAttitude`, the
///   board's rotation since start, heading and drift included) into a frame
///   that does not turn with the board, and averaged there by a second-order
///   Butterworth low-pass of time constant `accelerationTime`. A hand's push
///   accelerates the board one way and then the other: averaged over a
///   couple of seconds it cancels, while gravity, which never changes in that
///   frame, stays. The inclination (`inclination`, a turn about a level
///   axis) is then set so that the averaged vector points straight up.
///   The filter this replaced trusted each reading unless it disagreed by
///   more than 4° and re-aligned hard after 1.5 s of disagreement: on BROAD's
///   fast translation it lost the horizon (42° RMS, 168° worst) because a
///   sustained push looked like a tilt; this way it holds (see docs/performance.md).
/// - **Nothing is gated.** No reading is ignored for its size or its
///   disagreement: a jolt of several g is one sample among hundreds in the
///   average, and a push only cancels in the average if all of it goes in.
///   Measured: holding the average while a reading's magnitude is more than
///   0.3–1 g off 1 g (Fusion's kind of rejection, softened) took BROAD's fast
///   translation from 0.42° to 7–27° RMS, and the mean of the 30 trials from
///   0.58° to 4–5°: the part of a push that is kept no longer cancels.
/// - **The gyroscope's bias is estimated** (`GyroBiasEstimator`): at rest
///   from the gyroscope's own mean, in motion from what the inclination
///   correction keeps having to turn; a bias left in makes the inclination
///   lag behind by bias × `accelerationTime`.
/// - **Rest is detected** (`RestDetector`) for that, and to settle the
///   inclination quickly while the board lies still (`restSettleTime`): with
///   no push possible, the average need not be long, and a tilt the
///   gyroscope missed is set right within a couple of seconds of lying still.
///
/// Every step uses its own sample's time, so any rate from 25 Hz to 1 kHz,
/// and evdev's uneven timing, behave the same; samples with only a
/// gyroscope or only an accelerometer reading (a chip split over two
/// devices) each do their half. Start-up needs no special case: the
/// low-pass gives the running mean of its first `accelerationTime`, so the
/// first reading aligns the board at once.
public struct AttitudeFilter: Sendable {
    public struct Parameters: Sendable, Equatable {
        /// Time constant of the accelerometer's low-pass in the inertial frame, s.
        public var accelerationTime = 3.0
        /// The inclination error an unknown bias may cause through that
        /// low-pass (rad): while the bias about earth's level axes is
        /// uncertain by σ, the time constant is at most this / σ.
        public var driftAllowance = 1 * Double.pi / 180
        /// Time constant of the inclination's pull to the accelerometer while the board rests, s.
        public var restSettleTime = 0.5
        /// When the board is taken to rest.
        public var rest = RestThresholds()
        /// How the gyroscope's bias behaves and how far its measurements are trusted.
        public var bias = GyroBiasNoise()
        /// The largest bias believed (rad/s): a gyroscope off by more is broken, not drifting.
        public var maxBias = 0.2
        /// A bias known to within this (rad/s) is "known": worth saving, and
        /// a steady gyroscope far from it is a turn, not a rest.
        public var knownBiasSigma = 0.3 * Double.pi / 180
        /// How the magnetometer corrects the heading, where there is one.
        public var heading = MagneticHeadingParameters()
        /// Whether and how an offset riding with the board is learnt from the magnetometer.
        public var hardIron = HardIronParameters()
        public init() {}
    }

    public let parameters: Parameters
    /// The board's rotation as the gyroscope alone has it (board → inertial frame).
    @usableFromInline private(set) var gyroAttitude = Quaternion.identity
    /// The turn about a level axis that takes the inertial frame to the earth's.
    @usableFromInline private(set) var inclination = Quaternion.identity
    /// The accelerometer in the inertial frame (x, y, z), and what the bias
    /// estimate needs low-passed the same way: the attitude's rotation matrix
    /// (9) and the bias seen in the earth frame (earth x and y).
    private var averages: ButterworthLowPass<SIMD16<Double>>
    private var rest: RestDetector
    private var biasEstimator: GyroBiasEstimator
    private var north: MagneticHeading
    private var hardIron: HardIronTracker
    private var lastFieldTime: Int64?
    /// `north.northOffset` when the first field arrived: what keeps
    /// `xArbitraryCorrectedZVertical` where the six-axis frame started.
    private var firstNorthOffset: Double?
    public private(set) var isAligned = false
    private var lastGyroTime: Int64?
    private var lastAccelTime: Int64?
    private var hasGyroscope = false
    /// The low-pass's time constant now (s); see `driftAllowance`.
    private var averagingTime = 0.0
    /// How fast that time constant may grow, s/s.
    static let averagingGrowth = 0.2

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        averages = ButterworthLowPass()
        rest = RestDetector(thresholds: parameters.rest, maxBias: parameters.maxBias)
        biasEstimator = GyroBiasEstimator(noise: parameters.bias, maxBias: parameters.maxBias)
        north = MagneticHeading(parameters: parameters.heading)
        hardIron = HardIronTracker(parameters: parameters.hardIron)
    }

    /// Board → earth (earth z up); the heading is the gyroscope's and drifts.
    @inlinable
    public var attitude: Quaternion { (inclination * gyroAttitude).normalized }

    /// The direction "up" (against gravity) in the board frame, for the current attitude.
    @inlinable
    public var up: Vector3 { attitude.conjugate.rotate(Vector3(0, 0, 1)) }

    /// The gyroscope's estimated bias, rad/s (board frame).
    public var bias: Vector3 { biasEstimator.bias }

    /// The bias estimate's standard deviation, the largest of its three axes, rad/s.
    public var biasUncertainty: Double { biasEstimator.sigma }

    /// Whether the board has been still long enough to be taken as resting.
    public var isAtRest: Bool { rest.isAtRest }

    /// Whether the bias is known well enough to keep for the next run: a few
    /// seconds at rest, or a good while turning about varied axes.
    public var hasLearntBias: Bool { biasEstimator.sigma <= parameters.knownBiasSigma }

    /// Starts from a bias learnt before (clamped to `maxBias`), so a known
    /// gyroscope needs no time to settle.
    public mutating func seedBias(_ bias: Vector3) {
        biasEstimator.remember(bias)
    }

    /// Folds in one sample: the gyroscope's part first (it carries the
    /// attitude to the sample's time), then the accelerometer's, then the
    /// magnetometer's (which needs the inclination they give).
    public mutating func add(_ sample: MotionSample) {
        if sample.hasRotationRate, sample.rotationRate.isFinite {
            addRotation(sample.rotationRate, at: sample.timestamp)
        }
        if sample.hasAcceleration, sample.acceleration.isFinite {
            addAcceleration(sample.acceleration, at: sample.timestamp)
        }
        if sample.hasMagneticField, sample.magneticField.isFinite, isAligned {
            let dt = lastFieldTime.map { Self.step(from: $0, to: sample.timestamp) } ?? 0
            lastFieldTime = max(lastFieldTime ?? .min, sample.timestamp)
            let updates = hardIron.updates
            let calibrated = magnetometerCalibration.apply(sample.magneticField)
            let field = parameters.hardIron.isEnabled ? hardIron.add(calibrated, dt: dt) : calibrated
            if hardIron.updates != updates {
                north.zeroMoved()
                refineMagnetometerCalibration()
            }
            // Smoothed (0.5 s) and bias-free: a magnet riding on the board shows as a changing dip only while it turns.
            let turnSpeed = hasGyroscope ? (rest.meanRotation - bias).length : 0
            magneticField = field
            north.add(earth: attitude.rotate(field), at: sample.timestamp, turnSpeed: turnSpeed)
            if firstNorthOffset == nil { firstNorthOffset = north.northOffset }
        }
    }

    /// Board → earth in `frame`: the six-axis attitude, its heading turned
    /// onto magnetic north (x north, z up), or onto where the six-axis
    /// frame's x was when the first field arrived. Before any magnetometer
    /// reading all three are the six-axis attitude.
    public func attitude(in frame: AttitudeReferenceFrame) -> Quaternion {
        guard frame != .xArbitraryZVertical, north.hasNorth, let first = firstNorthOffset else { return attitude }
        let turn = frame == .xMagneticNorthZVertical ? -north.northOffset : first - north.northOffset
        return (Quaternion(axis: Vector3(0, 0, 1), angle: turn) * attitude).normalized
    }

    /// The latest magnetometer reading with the learnt offset taken out, µT
    /// (board frame); nil until one arrives.
    public private(set) var magneticField: Vector3?

    /// How far `magneticField` is trusted: the better of the stored
    /// calibration's accuracy and, once an offset has been learnt while
    /// playing, how well its fit matched.
    public var magneticAccuracy: MagneticFieldAccuracy {
        let learnt = hardIron.updates > 0 ? MagneticFieldAccuracy(fitResidual: hardIron.fitResidual) : .uncalibrated
        return max(learnt, magnetometerCalibration.accuracy)
    }

    /// The offset riding with the board learnt while it turned (µT, board
    /// frame; zero unless `Parameters.hardIron` is enabled and a fit was believed).
    public var learntMagneticOffset: Vector3 { hardIron.offset }

    /// The stored calibration with the offset learnt while playing folded
    /// into it, for keeping: nil until the learnt fit matches a sphere to
    /// within 3 % of its radius (CoreMotion's medium), so a fit taken while
    /// the readings barely covered the sphere is never written back.
    ///
    /// The learnt offset is subtracted after the soft iron, so the raw
    /// offset it stands for is the stored one plus the soft iron's inverse
    /// of it: S·(m − o) − t = S·(m − (o + S⁻¹·t)). Made when either changes,
    /// not when read: the game's loops publish it every tick.
    public private(set) var refinedMagnetometerCalibration: MagnetometerCalibration?

    private mutating func refineMagnetometerCalibration() {
        refinedMagnetometerCalibration = nil
        guard hardIron.updates > 0 else { return }
        let accuracy = MagneticFieldAccuracy(fitResidual: hardIron.fitResidual)
        let soft = magnetometerCalibration.softIron
        guard accuracy >= .medium, let inverse = Matrix3(soft.0, soft.1, soft.2).inverse else { return }
        var refined = magnetometerCalibration
        refined.offset = magnetometerCalibration.offset + inverse * hardIron.offset
        refined.accuracy = accuracy
        refinedMagnetometerCalibration = refined
    }

    /// The magnetometer's hard and soft iron as calibrated (`tiltmaze
    /// calibrate --compass`), applied to every reading before anything else;
    /// the offset learnt while playing comes on top of it.
    public var magnetometerCalibration = MagnetometerCalibration.none {
        didSet { refineMagnetometerCalibration() }
    }

    /// Whether a magnetometer reading has given the heading a north.
    public var hasNorth: Bool { north.hasNorth }

    /// Whether the latest magnetometer reading was judged a disturbance
    /// (its strength or dip off the field learnt), and so ignored.
    public var isMagneticallyDisturbed: Bool { north.isDisturbed }

    /// `isMagneticallyDisturbed` once a field has been learnt to judge by:
    /// before that every reading "disturbs", which says nothing.
    public var hasMagneticDisturbance: Bool { north.isDisturbed && north.reference != nil }

    private mutating func addRotation(_ rate: Vector3, at time: Int64) {
        let dt = lastGyroTime.map { Self.step(from: $0, to: time) } ?? 0
        lastGyroTime = max(lastGyroTime ?? .min, time)
        hasGyroscope = true
        rest.addRotation(rate, dt: dt, bias: bias, biasIsKnown: hasLearntBias)
        guard dt > 0 else { return }
        gyroAttitude = (gyroAttitude * Quaternion(rotationVector: (rate - bias) * dt)).normalized
    }

    private mutating func addAcceleration(_ force: Vector3, at time: Int64) {
        // Free fall, or a broken reading: no gravity to see.
        guard force.length > 0.5 else { return }
        let dt = lastAccelTime.map { Self.step(from: $0, to: time) } ?? 0
        lastAccelTime = max(lastAccelTime ?? .min, time)
        rest.addAcceleration(force, dt: dt)

        let inertial = gyroAttitude.rotate(force)
        let r = Matrix3(rotation: attitude)
        let b = bias
        let earthBias = r * b
        var packed = SIMD16<Double>()
        packed[0] = inertial.x; packed[1] = inertial.y; packed[2] = inertial.z
        packed[3] = r.r0.x; packed[4] = r.r0.y; packed[5] = r.r0.z
        packed[6] = r.r1.x; packed[7] = r.r1.y; packed[8] = r.r1.z
        packed[9] = r.r2.x; packed[10] = r.r2.y; packed[11] = r.r2.z
        packed[12] = earthBias.x; packed[13] = earthBias.y
        // A bias uncertain by σ about the level axes tilts the inertial frame
        // by up to σ·τ before the average catches up: until it is known,
        // average for less.
        // The time constant grows slowly, though: a low-pass whose lag grows
        // at k seconds a second passes only 1 − k of a drift's rate, and the
        // bias estimate, which reads the drift from the correction, would
        // stall (measured: at once, a 2.7 °/s bias stalled at 0.4 °/s). At
        // rest the bias is read from the gyroscope itself, so it may jump.
        let levelSigma = biasEstimator.levelSigma(seenThrough: r)
        let wanted = min(parameters.accelerationTime, parameters.driftAllowance / max(levelSigma, 1e-9))
        let tau = isAligned && !rest.isAtRest ? min(wanted, averagingTime + Self.averagingGrowth * dt) : wanted
        averagingTime = tau
        let average = averages.update(packed, dt: dt, timeConstant: tau)

        if rest.isAtRest && averages.isSettled {
            // Still: the reading is gravity alone, so the average may follow it
            // faster than a push would allow (restSettleTime, not accelerationTime).
            var settled = average
            let k = min(1, dt / parameters.restSettleTime)
            settled[0] += (inertial.x - average[0]) * k
            settled[1] += (inertial.y - average[1]) * k
            settled[2] += (inertial.z - average[2]) * k
            averages.setSteady(at: settled, timeConstant: tau)
        }
        let filtered = Vector3(averages.value[0], averages.value[1], averages.value[2])
        guard filtered.length > 0 else { return }

        // Turn the inclination so the averaged force points straight up.
        let n = inclination.rotate(filtered) / filtered.length
        let w = ((n.z + 1) / 2).squareRoot()
        let correction = w > 1e-6 ? Quaternion(w: w, x: n.y / (2 * w), y: -n.x / (2 * w), z: 0)
                                  : Quaternion(w: 0, x: 1, y: 0, z: 0)
        inclination = (correction * inclination).normalized
        isAligned = true

        guard hasGyroscope, dt > 0 else { return }
        biasEstimator.predict(dt: dt)
        if rest.isAtRest {
            biasEstimator.update(restingRate: rest.meanRotation, dt: dt)
        } else if averages.isSettled {
            // The correction just made, as a rate about earth's level axes, is
            // the drift the bias left in; the low-passed terms account for the
            // average's delay (it answers to the bias over its whole window).
            let averaged = Matrix3(Vector3(average[3], average[4], average[5]),
                                   Vector3(average[6], average[7], average[8]),
                                   Vector3(average[9], average[10], average[11]))
            let seen = averaged * b
            let innovation = Vector3(-n.y / dt + average[12] - seen.x, n.x / dt + average[13] - seen.y, -seen.z)
            biasEstimator.update(innovation: innovation, observation: averaged, dt: dt)
        }
    }

    /// The motion as of the last sample, given that sample's readings.
    public func motion(for sample: MotionSample) -> FusedMotion {
        let gravity = up * -standardGravity
        var motion = FusedMotion(attitude: attitude, gravity: gravity,
                                 userAcceleration: sample.hasAcceleration ? sample.acceleration + gravity : .zero,
                                 rotationRate: sample.hasRotationRate ? sample.rotationRate - bias : .zero)
        motion.restDetected = rest.isAtRest
        motion.magneticDisturbance = hasMagneticDisturbance
        return motion
    }

    /// The attitude whose "up" is `up`, with no heading (board x along earth x as far as it can be).
    static func aligned(with up: Vector3) -> Quaternion {
        // The shortest rotation taking the board's up (what `up` is in the board frame) to earth z.
        let z = Vector3(0, 0, 1)
        let axis = up.cross(z)
        let s = axis.length, c = up.dot(z)
        guard s > 1e-9 else { return c > 0 ? .identity : Quaternion(axis: Vector3(1, 0, 0), angle: .pi) }
        return Quaternion(axis: axis / s, angle: atan2(s, c))
    }

    /// Seconds from `a` to `b`, never negative, at most a quarter second (a
    /// gap longer than that is a pause, not motion to integrate).
    static func step(from a: Int64, to b: Int64) -> Double {
        min(max(Double(b - a) / 1e9, 0), 0.25)
    }
}

extension Vector3 {
    var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}
