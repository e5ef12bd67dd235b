// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
/// has to correct slowly (`slowTime`), so a push averages out.
///
/// What the field cannot show is a turn about the field's own axis: the
/// direction does not change. The Earth's field dips steeply (60–70° in
/// Europe), so that axis is close to the vertical and most of such a turn
/// is a change of heading, which does not tilt the board; but its horizontal
/// part does. For that part of the tilt, and whenever the field is judged
/// disturbed (its strength off the learnt one, as a magnet nearby makes it),
/// the accelerometer is followed as quickly as without a magnetometer
/// (`fastTime`, the 5 Hz low-pass of the accelerometer-only path).
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
    /// The magnetometer's stored hard and soft iron: a field turned by the
    /// sensor's own iron would turn differently from the board.
    var magnetometerCalibration = MagnetometerCalibration.none

    init(parameters: CompassTiltParameters) {
        self.parameters = parameters
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
        let m = magnetometerCalibration.apply(reading)
        let norm = m.length
        guard norm > 1 else { return }
        let dt = lastFieldTime.map { AttitudeFilter.step(from: $0, to: time) } ?? 0
        lastFieldTime = max(lastFieldTime ?? .min, time)
        let p = parameters
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
        defer { lastDirection = direction }
        guard isAligned, let old = lastDirection else { return }
        // The turn that carries the new direction onto the old one (see the type's comment).
        let axis = direction.cross(old)
        let s = axis.length
        guard s > 1e-12 else { return }
        let angle = atan2(s, direction.dot(old))
        attitude = (attitude * Quaternion(rotationVector: axis * (angle / s))).normalized
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
        let correction: Vector3
        if let axis = lastDirection {
            let unseen = axis * error.dot(axis)
            correction = unseen * fast + (error - unseen) * MagneticHeading.gain(dt: dt, timeConstant: parameters.slowTime)
        } else {
            correction = error * fast
        }
        attitude = (attitude * Quaternion(rotationVector: .zero - correction)).normalized
    }
}

/// How `CompassTilt` weighs its two sensors (see there for why each).
public struct CompassTiltParameters: Sendable, Equatable {
    /// Time constant of the accelerometer's pull on the tilt the field sees, s.
    public var slowTime = 3.0
    /// The same for the tilt it cannot see, and while it is disturbed, s:
    /// a 5 Hz first-order low-pass.
    public var fastTime = 1 / (2 * Double.pi * 5)
    /// Time constant of the field's smoothing in the board frame, s. None
    /// by default: on BROAD even 10 ms of lag cost more than the noise
    /// (a degree or so per reading) it took out.
    public var fieldSmoothing = 0.0
    /// How far the field's strength may be off the learnt one, as a fraction of it.
    public var normTolerance = 0.1
    /// Time constant with which the learnt strength follows an undisturbed field, s.
    public var normTime = 20.0
    public init() {}
}
