#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the motion layer knows after a sample, as CoreMotion's device motion
/// says it: where the board points, gravity and the player's own push
/// separated, and the rotation rate with the gyroscope's bias taken out.
public struct FusedMotion: Sendable, Equatable, BitwiseCopyable {
    /// Board → earth (earth z up); heading is free with six axes and may drift.
    public var attitude: Quaternion
    /// Gravity's pull in the board frame, m/s²: about (0, 0, −9.81) for a board lying flat.
    public var gravity: Vector3
    /// What the accelerometer measured beyond gravity: accel + gravity, m/s².
    public var userAcceleration: Vector3
    /// Gyroscope minus its estimated bias, rad/s.
    public var rotationRate: Vector3

    public init(attitude: Quaternion = .identity, gravity: Vector3 = .zero, userAcceleration: Vector3 = .zero,
                rotationRate: Vector3 = .zero) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
    }
}

/// A six-axis attitude filter: the gyroscope carries the attitude from one
/// sample to the next, and the accelerometer pulls its inclination towards
/// gravity, slowly, and not at all while the board is being shaken.
///
/// Why this design (a complementary filter of the Mahony kind, with VQF's
/// habits where they matter for a tilt game):
/// - the gyroscope is integrated exactly (the rotation vector of each step,
///   not a first-order step), so fast tilts need no accelerometer to follow;
/// - the accelerometer correction is a rotation towards the measured "up",
///   proportional to the angle between it and the estimate, with a time
///   constant (`correctionTime`) long enough that hand jitter and the ball's
///   own shaking average out; it is skipped while the measured force is
///   not about 1 g (`shakeTolerance`: a 2 g jolt moves nothing), and while
///   the measured up is more than a few degrees off the estimate
///   (`disagreement`: the gyroscope already follows real tilts, so that is a
///   push), unless that lasts (`recoveryTime`: then the estimate was wrong);
/// - the gyroscope's bias is learnt from the same correction (what the
///   accelerometer keeps having to correct is drift), faster while the board
///   rests (the gyroscope then reads nothing but bias and noise);
/// - it starts aligned with the first accelerometer reading and corrects
///   strongly for `startTime`, so it converges within a second;
/// - every step uses its own sample's time, so any rate from 25 Hz to
///   1 kHz, and evdev's uneven timing, give the same behaviour; samples
///   with only a gyroscope or only an accelerometer reading (a chip split
///   over two devices) each do their half.
public struct AttitudeFilter: Sendable {
    public struct Parameters: Sendable, Equatable {
        /// Time constant of the accelerometer's pull on the inclination, s.
        public var correctionTime = 1.5
        /// The same during start-up, s.
        public var startCorrectionTime = 0.1
        /// How long start-up lasts, s.
        public var startTime = 1.0
        /// Time constant of bias learning while moving, and at rest, s.
        public var biasTime = 20.0
        public var restBiasTime = 2.0
        /// Accelerometer readings further than this from 1 g (as a fraction) correct nothing.
        public var shakeTolerance = 0.12
        /// Once started, readings whose "up" is further than this from the
        /// estimate (radians) correct nothing either: the gyroscope follows
        /// real tilts, so a large disagreement is a push, not a tilt…
        public var disagreement = 4 * Double.pi / 180
        /// … unless it lasts this long (s): then the estimate is what is
        /// wrong, and the accelerometer is trusted again.
        public var recoveryTime = 1.5
        /// At rest: rotation below this (rad/s) and force within this fraction of 1 g…
        public var restRotation = 0.06
        public var restForce = 0.03
        /// … for this long (s).
        public var restTime = 0.7
        /// The largest bias believed (rad/s): a gyroscope off by more is broken, not drifting.
        public var maxBias = 0.2
        public init() {}
    }

    public var parameters: Parameters
    public private(set) var attitude = Quaternion.identity
    /// The gyroscope's estimated bias, rad/s (board frame).
    public private(set) var bias = Vector3.zero
    public private(set) var isAligned = false
    /// Seconds of samples folded in since alignment.
    public private(set) var runTime = 0.0
    /// Seconds the board has looked at rest, now and in all.
    public private(set) var restingFor = 0.0
    public private(set) var restedInAll = 0.0
    /// Seconds the accelerometer has been disagreeing with the estimate.
    public private(set) var disagreeingFor = 0.0
    private var lastGyroTime: Int64?
    private var lastAccelTime: Int64?
    private var lastRotation = Vector3.zero

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// Whether the bias estimate has had long enough to be worth keeping
    /// for the next run: a few seconds at rest (where it converges in
    /// `restBiasTime`) or a good while in motion (`biasTime`).
    public var hasLearntBias: Bool {
        restedInAll >= 3 * parameters.restBiasTime || runTime >= parameters.biasTime
    }

    /// Starts from a bias learnt before (clamped to `maxBias`), so a known
    /// gyroscope needs no time to settle.
    public mutating func seedBias(_ bias: Vector3) {
        let limit = parameters.maxBias
        func safe(_ v: Double) -> Double { v.isFinite ? clamp(v, limit) : 0 }
        self.bias = Vector3(safe(bias.x), safe(bias.y), safe(bias.z))
    }

    /// The direction "up" (against gravity) in the board frame, for the current attitude.
    @inlinable
    public var up: Vector3 { attitude.conjugate.rotate(Vector3(0, 0, 1)) }

    /// Folds in one sample: the gyroscope's part first (it carries the
    /// attitude to the sample's time), then the accelerometer's.
    public mutating func add(_ sample: MotionSample) {
        if sample.hasRotationRate {
            let rate = sample.rotationRate - bias
            if let last = lastGyroTime, isAligned {
                let dt = Self.step(from: last, to: sample.timestamp)
                attitude = (attitude * Quaternion(rotationVector: rate * dt)).normalized
            }
            lastGyroTime = max(lastGyroTime ?? .min, sample.timestamp)
            lastRotation = rate
        }
        guard sample.hasAcceleration else { return }
        let force = sample.acceleration
        let magnitude = force.length
        guard magnitude > 0.5 else { return }   // free fall or a broken reading: nothing to align to
        let measuredUp = force / magnitude
        guard isAligned, let last = lastAccelTime else {
            attitude = Self.aligned(with: measuredUp)
            isAligned = true
            lastAccelTime = sample.timestamp
            return
        }
        let dt = Self.step(from: last, to: sample.timestamp)
        lastAccelTime = max(last, sample.timestamp)
        runTime += dt
        let p = parameters
        let forceError = abs(magnitude / standardGravity - 1)
        let atRest = forceError < p.restForce && lastRotation.length < p.restRotation
        restingFor = atRest ? restingFor + dt : 0
        if restingFor >= p.restTime { restedInAll += dt }
        guard forceError < p.shakeTolerance else { return }   // shaken: trust the gyroscope alone

        // A rotation (board frame) about measured × estimated turns the
        // estimated up towards the measured one: a fixed vector seen from a
        // board turning at ω moves as −ω × v, and −(m × v) × v points to m.
        let estimatedUp = up
        let error = measuredUp.cross(estimatedUp)
        let starting = runTime < p.startTime
        var recovering = false
        if !starting && (error.length > sin(p.disagreement) || measuredUp.dot(estimatedUp) < 0) {
            disagreeingFor += dt
            if disagreeingFor < p.recoveryTime { return }
            recovering = true   // the estimate is wrong: align again, as at start
        } else {
            disagreeingFor = 0
        }
        let tau = starting || recovering ? p.startCorrectionTime : p.correctionTime
        attitude = (attitude * Quaternion(rotationVector: error * min(1, dt / tau))).normalized

        // Drift the accelerometer keeps correcting is the gyroscope's bias.
        if lastGyroTime != nil && !starting && !recovering {
            if restingFor >= p.restTime {
                // At rest the gyroscope reads bias (and noise) only: pull towards it.
                bias = bias + lastRotation * min(1, dt / p.restBiasTime)
            } else {
                // Moving: the correction's rate, error / tau, cancels the bias not yet
                // taken out (about the axes gravity can see; heading's share stays unknown).
                bias = bias - error * (min(1, dt / p.biasTime) / tau)
            }
            bias = Vector3(clamp(bias.x, p.maxBias), clamp(bias.y, p.maxBias), clamp(bias.z, p.maxBias))
        }
    }

    /// The motion as of the last sample, given that sample's readings.
    public func motion(for sample: MotionSample) -> FusedMotion {
        let gravity = up * -standardGravity
        return FusedMotion(attitude: attitude, gravity: gravity,
                           userAcceleration: sample.hasAcceleration ? sample.acceleration + gravity : .zero,
                           rotationRate: sample.hasRotationRate ? sample.rotationRate - bias : .zero)
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

    private func clamp(_ v: Double, _ limit: Double) -> Double { min(max(v, -limit), limit) }
}
