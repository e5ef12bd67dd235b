// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Tilt from an accelerometer and a magnetometer, for a board without a
/// gyroscope (an LSM303; a Sense HAT whose kernel binds only st_accel and
/// st_magn).
///
/// An accelerometer alone cannot tell a push from a tilt: both change what
/// it reads. The magnetometer can, in part. The Earth's field is fixed, so
/// its direction in the board changes only when the board turns, never when
/// it is pushed. Each change of that direction is taken as the board's turn
/// (the smallest rotation that carries the new direction onto the old one),
/// the way a gyroscope's reading would be, and the accelerometer then only
/// has to correct what that misses: quickly while the two agree to within a
/// few degrees (calibration error, iron the board passes), and at a bounded
/// rate when they disagree by more, which a push makes them do.
///
/// What the field cannot show is a turn about the field's own axis: the
/// direction does not change. The Earth's field dips steeply (60–70° in
/// Europe), so that axis is close to the vertical and most of such a turn
/// is a change of heading, which does not tilt the board; but its horizontal
/// part does. That part of the tilt comes from the accelerometer alone, as
/// quickly as without a magnetometer (`fastTime`, the 5 Hz low-pass of the
/// accelerometer-only path), except while the acceleration's strength is
/// well off 1 g: a push, during which it is held. Whenever the field is
/// judged disturbed (its strength off the learnt one, as a magnet nearby
/// makes it), the whole tilt follows the accelerometer that way. An offset
/// riding with the board is learnt as the attitude filter learns it
/// (`HardIronTracker`), so a magnet in the board's case is no disturbance.
/// And a board lying still is left to the accelerometer alone: the
/// magnetometer's direction wanders by a degree a reading (BROAD's does),
/// which would only shake a tilt that gravity gives exactly.
struct CompassTilt: Sendable {
    let parameters: CompassTiltParameters
    /// Board → earth; the heading is meaningless.
    private(set) var attitude = Quaternion.identity
    private(set) var isAligned = false
    /// The field's direction in the board at the last reading, while it is trusted.
    private var lastDirection: Vector3?
    /// The field, lightly low-passed in the board frame, µT.
    private var field = Vector3.zero
    /// The field's learnt strength, µT (0 until the first reading).
    private var learntNorm = 0.0
    private var lastFieldTime: Int64?
    private var lastAccelTime: Int64?
    /// The north offset at the last trusted reading, and at the first.
    private var heldNorthOffset: Double?
    private var firstNorthOffset: Double?
    /// The accelerometer's reading low-passed over `restFilterTime`, and how
    /// long the readings have stayed within `restDeviation` of it, s.
    private var restMean = Vector3(0, 0, standardGravity)
    private var stillFor = 0.0
    /// Whether the board lies still: the accelerometer then reads gravity
    /// alone, and is followed as without a magnetometer, whose noise would
    /// only shake the tilt.
    private var isAtRest: Bool { stillFor >= parameters.restTime }
    /// The accelerometer's reading, low-passed at 5 Hz, m/s².
    private var smoothed = Vector3(0, 0, standardGravity)
    /// The magnetometer's stored hard and soft iron: a field turned by the
    /// sensor's own iron would turn differently from the board.
    var magnetometerCalibration = MagnetometerCalibration.none

    private var hardIron: HardIronTracker

    init(parameters: CompassTiltParameters) {
        self.parameters = parameters
        hardIron = HardIronTracker(parameters: parameters.hardIron)
    }

    /// "Up" in the board frame.
    var up: Vector3 { attitude.conjugate.rotate(Vector3(0, 0, 1)) }

    mutating func add(_ sample: MotionSample) {
        if sample.hasMagneticField, sample.magneticField.isFinite {
            addField(sample.magneticField, at: sample.timestamp)
        }
        if sample.hasAcceleration, sample.acceleration.isFinite {
            addAcceleration(sample.acceleration, at: sample.timestamp)
        }
    }

    private mutating func addField(_ reading: Vector3, at time: Int64) {
        let dt = lastFieldTime.map { AttitudeFilter.step(from: $0, to: time) } ?? 0
        lastFieldTime = max(lastFieldTime ?? .min, time)
        let p = parameters
        let updates = hardIron.updates
        let calibrated = magnetometerCalibration.apply(reading)
        let m = p.hardIron.isEnabled ? hardIron.add(calibrated, dt: dt) : calibrated
        if hardIron.updates != updates {
            // A new zero: the field's strength and direction start again from it.
            learntNorm = 0
            lastDirection = nil
        }
        let norm = m.length
        guard norm > 1 else { return }
        if learntNorm == 0 {
            learntNorm = norm
            field = m
        } else {
            field = field + (m - field) * MagneticHeading.gain(dt: dt, timeConstant: p.fieldSmoothing)
        }
        let smoothedNorm = field.length
        guard abs(smoothedNorm - learntNorm) < p.normTolerance * learntNorm else {
            // A magnet near the board: its direction says nothing of a turn.
            lastDirection = nil
            return
        }
        learntNorm += (smoothedNorm - learntNorm) * MagneticHeading.gain(dt: dt, timeConstant: p.normTime)
        let direction = field / smoothedNorm
        defer {
            lastDirection = direction
            if isAligned { holdNorth() }
        }
        // At rest the field's direction changes only by the magnetometer's noise (a degree a reading).
        guard isAligned, let old = lastDirection, !isAtRest else { return }
        // The turn that carries the new direction onto the old one (see the type's comment).
        let axis = direction.cross(old)
        let s = axis.length
        guard s > 1e-12 else { return }
        let angle = atan2(s, direction.dot(old))
        attitude = (attitude * Quaternion(rotationVector: axis * (angle / s))).normalized
    }

    /// Whether a trusted field has given the heading a north.
    var hasNorth: Bool { heldNorthOffset != nil }

    /// The angle from the estimate's x to magnetic north about the vertical,
    /// radians: that of the field's horizontal part, seen through the tilt
    /// (a tilt-compensated compass; without a gyroscope there is nothing to
    /// carry the heading between readings, so each trusted reading sets it).
    /// While the field is disturbed, the last trusted one is held.
    private func northOffset() -> Double? {
        guard let direction = lastDirection else { return heldNorthOffset }
        let earth = attitude.rotate(direction)
        guard earth.x * earth.x + earth.y * earth.y > 1e-4 else { return heldNorthOffset }
        return atan2(earth.y, earth.x)
    }

    /// Board → earth in `frame`, as `AttitudeFilter.attitude(in:)`: x turned
    /// onto magnetic north, or onto where it was at the first trusted field;
    /// before one, and in `xArbitraryZVertical`, the tilt with its own heading.
    func attitude(in frame: AttitudeReferenceFrame) -> Quaternion {
        guard frame != .xArbitraryZVertical, let offset = northOffset(), let first = firstNorthOffset else { return attitude }
        let turn = frame == .xMagneticNorthZVertical ? -offset : first - offset
        return (Quaternion(axis: Vector3(0, 0, 1), angle: turn) * attitude).normalized
    }

    /// Keeps the north offset of a trusted reading, for while the field is disturbed.
    private mutating func holdNorth() {
        guard lastDirection != nil, let offset = northOffset() else { return }
        heldNorthOffset = offset
        if firstNorthOffset == nil { firstNorthOffset = offset }
    }

    private mutating func addAcceleration(_ force: Vector3, at time: Int64) {
        let length = force.length
        guard length > 0.5 else { return }
        let dt = lastAccelTime.map { AttitudeFilter.step(from: $0, to: time) } ?? 0
        lastAccelTime = max(lastAccelTime ?? .min, time)
        let measured = force / length
        guard isAligned else {
            attitude = AttitudeFilter.aligned(with: measured)
            isAligned = true
            return
        }
        // The turn (board frame, axis × sine) that would bring the estimate's up onto the reading.
        let error = up.cross(measured)
        let fast = MagneticHeading.gain(dt: dt, timeConstant: parameters.fastTime)
        smoothed = smoothed + (force - smoothed) * fast
        let p = parameters
        restMean = restMean + (force - restMean) * MagneticHeading.gain(dt: dt, timeConstant: p.restFilterTime)
        stillFor = (force - restMean).length < p.restDeviation ? stillFor + dt : 0
        guard let axis = lastDirection, !isAtRest else {
            attitude = (attitude * Quaternion(rotationVector: .zero - error * fast)).normalized
            return
        }
        let unseen = axis * error.dot(axis)
        let correction = unseen * (fast * pushTrust) + seenCorrection(error - unseen, dt: dt)
        attitude = (attitude * Quaternion(rotationVector: .zero - correction)).normalized
    }

    /// How far the accelerometer is believed about the field's axis, 1 to 0
    /// as its smoothed strength goes from `pushRejection`'s lower to upper
    /// bound off 1 g (Valenti et al.'s adaptive gain). Only it can see a
    /// turn about that axis, and a push there looks the same: held still
    /// through a push, the tilt waits for the accelerometer to read gravity
    /// again. Smoothed (5 Hz) so that a vibration, which swings the
    /// strength both ways many times a second, does not close it.
    private var pushTrust: Double {
        let off = abs(smoothed.length - standardGravity) / standardGravity
        let band = parameters.pushRejection
        return min(max((band.upperBound - off) / (band.upperBound - band.lowerBound), 0), 1)
    }

    /// The accelerometer's pull on the tilt the field sees, for a
    /// disagreement `error` (board frame, axis × sine). The field's
    /// direction is not quite the board's turn: calibration leaves a degree
    /// or two, and iron the board passes bends it. A small disagreement is
    /// that, and is followed quickly (`agreementTime`); a large one is a
    /// push, which moves the tilt no faster than a disagreement of
    /// `agreement` would (a Huber-style robust pull), and never slower than
    /// `slowTime`.
    private func seenCorrection(_ error: Vector3, dt: Double) -> Vector3 {
        let p = parameters
        let size = error.length
        let robust = MagneticHeading.gain(dt: dt, timeConstant: p.agreementTime) * min(1, p.agreement / max(size, 1e-12))
        return error * max(robust, MagneticHeading.gain(dt: dt, timeConstant: p.slowTime))
    }
}

/// How `CompassTilt` weighs its two sensors (see there for why each).
public struct CompassTiltParameters: Sendable, Equatable {
    /// Time constant of the accelerometer's slowest pull on the tilt the
    /// field sees (the pull for a disagreement well beyond `agreement`), s.
    public var slowTime = 3.0
    /// Time constant of the pull on the tilt the field cannot see, and on
    /// all of it while the field is disturbed, s: a 5 Hz first-order low-pass.
    public var fastTime = 1 / (2 * Double.pi * 5)
    /// Time constant of the field's smoothing in the board frame, s. None
    /// by default: on BROAD even 10 ms of lag cost more than the noise
    /// (a degree or so per reading) it took out.
    public var fieldSmoothing = 0.0
    /// How far the field's strength may be off the learnt one, as a fraction of it.
    public var normTolerance = 0.1
    /// Time constant with which the learnt strength follows an undisturbed field, s.
    public var normTime = 20.0
    /// Learning an offset riding with the board (a magnet in its case), as the attitude filter does.
    public var hardIron = HardIronParameters()
    /// At rest (the acceleration within `restDeviation` m/s² of its mean over
    /// `restFilterTime` s for `restTime` s: the attitude filter's thresholds)
    /// the field's turns are not followed, and the tilt is the accelerometer's.
    public var restDeviation = 0.5
    public var restFilterTime = 0.5
    public var restTime = 1.5
    /// How far the smoothed acceleration may be off 1 g, as a fraction of
    /// it, before the accelerometer is believed less (lower bound) and not
    /// at all (upper) about the field's axis; Valenti et al.'s 0.1 and 0.2.
    public var pushRejection = 0.1 ... 0.2
    /// The disagreement (radians) between the accelerometer and the tilt the
    /// field sees up to which the accelerometer is followed at `agreementTime`.
    public var agreement = 5 * Double.pi / 180
    /// Time constant of that pull, s. With `agreement` it bounds how fast a
    /// push can tilt the estimate: 5° in 0.6 s, about 8°/s.
    public var agreementTime = 0.6
    public init() {}
}
