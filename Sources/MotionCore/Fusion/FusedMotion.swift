// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

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
    /// The compass heading of the board's top edge, degrees clockwise from
    /// magnetic north in [0, 360); nil unless the attitude is in
    /// `xMagneticNorthZVertical` and a magnetometer has found north.
    public var heading: Double?
    /// The latest magnetic field, µT (board frame), offset taken out; nil without a magnetometer.
    public var magneticField: Vector3?
    /// How far `magneticField`'s calibration is trusted.
    public var magneticAccuracy: MagneticFieldAccuracy = .uncalibrated
    /// Whether the attitude filter judges the board at rest (see `RestDetector`):
    /// then it learns the gyroscope's bias.
    public var restDetected = false
    /// Whether the latest magnetometer reading was judged a disturbance
    /// against the field learnt, and left out of the heading; false
    /// without a magnetometer or before a field is learnt.
    public var magneticDisturbance = false

    public init(attitude: Quaternion = .identity, gravity: Vector3 = .zero, userAcceleration: Vector3 = .zero,
                rotationRate: Vector3 = .zero) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
    }

    /// The compass heading (degrees clockwise from north, in [0, 360)) of a
    /// board whose attitude is `attitude` in a frame with x north and z up:
    /// where its top edge (y) points, seen from above. A board standing on
    /// its bottom edge has its top straight up; then its back (−z, where a
    /// camera would look) is used.
    public static func heading(of attitude: Quaternion) -> Double {
        var forward = attitude.rotate(Vector3(0, 1, 0))
        if forward.x * forward.x + forward.y * forward.y < 1e-6 { forward = attitude.rotate(Vector3(0, 0, -1)) }
        // x north, y west: east is −y.
        var degrees = atan2(-forward.y, forward.x) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }
}
