// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// One sample's motion, as CoreMotion's `CMDeviceMotion` gives it: the
/// attitude from the attitude filter, gravity and the user's acceleration
/// apart, the rotation rate with the gyroscope's bias taken out, and the
/// raw reading beside them.
///
/// Units are SI and the frame is the board's (x right, y forward, z up out
/// of the board, after the sensor's mount matrix): a board lying flat has
/// gravity ≈ (0, 0, −9.81) m/s².
public struct DeviceMotion: Sendable, Equatable {
    /// When the sample was taken: `CLOCK_MONOTONIC` nanoseconds, the driver's
    /// own stamp where it gives one.
    public var timestamp: Int64
    /// The board's attitude in the reference frame the updates were started
    /// with (earth z up), from level whatever the neutral. In the default
    /// `xArbitraryZVertical` the heading is the gyroscope's and drifts.
    public var attitude: Attitude
    /// Gravity's pull in the board frame, m/s², measured from level.
    public var gravity: Vector3
    /// ``gravity`` as the player means it: seen from the neutral taken with
    /// ``MotionManager/changeReference(_:)`` (the tutorials' calibrated
    /// tilt), so a board held at its neutral reads as level. Equal to
    /// ``gravity`` while the neutral is level or its correction is off.
    public var calibratedGravity: Vector3
    /// What the accelerometer measured beyond gravity, m/s².
    public var userAcceleration: Vector3
    /// The gyroscope's reading less its estimated bias, rad/s; nil without a gyroscope.
    public var rotationRate: Vector3?
    /// The accelerometer's reading as the sensor gave it (specific force: +9.81 m/s² up at rest), m/s².
    public var acceleration: Vector3
    /// A shake that crossed the detector's threshold on this sample, if one did.
    public var shake: Shake?
    /// Degrees clockwise from magnetic north, in [0, 360), of the board's
    /// top edge; −1 unless the updates were started in
    /// `xMagneticNorthZVertical` and a magnetometer has found north (as
    /// CoreMotion gives −1 in the other frames).
    public var heading: Double
    /// The magnetic field with its calibration's accuracy; nil without a magnetometer.
    public var magneticField: CalibratedMagneticField?
    /// Whether the attitude filter judges the board at rest, as VQF's
    /// `getRestDetected`: for 1.5 s the gyroscope within 2 °/s of its
    /// half-second mean (and that mean no larger than a bias, and near the
    /// bias once known), the accelerometer within 0.5 m/s² of its own and not
    /// tilting by 2°. The gyroscope's bias is learnt then
    /// (`CalibrationState.gyroBiasUncertainty` falls).
    public var restDetected: Bool
    /// Whether the latest magnetometer reading was judged a disturbance (a
    /// magnet, steel, a motor nearby) and kept out of the heading, as VQF's
    /// `getMagDistDetected`: its strength more than 10 % or its dip more than
    /// 10° off the field learnt. False without a magnetometer, and before a
    /// field has been learnt (5 s of agreeing readings); a field that stays
    /// different for 20 s while the board turns becomes the new field.
    public var magneticDisturbance: Bool

    /// A motion from its parts (tests, and programs that replay their own);
    /// `calibratedGravity` is `gravity` unless given.
    public init(timestamp: Int64, attitude: Attitude, gravity: Vector3, calibratedGravity: Vector3? = nil,
                userAcceleration: Vector3, rotationRate: Vector3?, acceleration: Vector3, shake: Shake? = nil,
                heading: Double = -1, magneticField: CalibratedMagneticField? = nil,
                restDetected: Bool = false, magneticDisturbance: Bool = false) {
        self.restDetected = restDetected
        self.magneticDisturbance = magneticDisturbance
        self.timestamp = timestamp
        self.attitude = attitude
        self.heading = heading
        self.magneticField = magneticField
        self.gravity = gravity
        self.calibratedGravity = calibratedGravity ?? gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.acceleration = acceleration
        self.shake = shake
    }

    /// The fused motion of `sample`, with the player's neutral `reference`.
    init(_ sample: MotionSample, motion: FusedMotion, shake: Shake?, reference: TiltReference) {
        self.init(timestamp: sample.timestamp, attitude: Attitude(motion.attitude), gravity: motion.gravity,
                  calibratedGravity: reference.apply(to: motion.gravity),
                  userAcceleration: motion.userAcceleration,
                  rotationRate: sample.hasRotationRate ? motion.rotationRate : nil,
                  acceleration: sample.acceleration, shake: shake, heading: motion.heading ?? -1,
                  magneticField: motion.magneticField.map { CalibratedMagneticField(field: $0, accuracy: motion.magneticAccuracy) },
                  restDetected: motion.restDetected, magneticDisturbance: motion.magneticDisturbance)
    }
}
