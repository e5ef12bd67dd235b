// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// What of the attitude filter is worth keeping from one run to the next,
/// per device: the player's neutral tilt (the tutorials' "calibrate"), the
/// gyroscope's bias once it has been learnt, and the magnetometer's
/// calibration once refined while the board turned.
public struct CalibrationState: Sendable, Equatable, BitwiseCopyable {
    /// The neutral the attitude and gravity are measured from (level when not calibrated).
    public var reference: TiltReference
    /// The gyroscope's bias, rad/s, as estimated now.
    public var gyroBias: Vector3
    /// Whether the bias was estimated long enough (at rest) to be worth keeping.
    public var hasLearntGyroBias: Bool
    /// The standard deviation of the bias estimate, rad/s (its largest
    /// axis): 0.5 °/s (0.0087 rad/s) at the start, whether the bias was
    /// remembered or starts at zero; falling as the board rests (to some
    /// 0.0005 rad/s), and while it turns about varied axes; growing slowly
    /// otherwise (a bias wanders with temperature). 0 until a gyroscope
    /// reading has come, and without a gyroscope.
    public var gyroBiasUncertainty: Double
    /// The stored hard and soft iron with the offset learnt while the board
    /// turned folded in, once its fit is good enough to keep (CoreMotion's
    /// medium or better); nil before, or without a magnetometer.
    public var magnetometer: MagnetometerCalibration?

    /// A calibration: level, no bias and no magnetometer unless given.
    public init(reference: TiltReference = .level, gyroBias: Vector3 = .zero, hasLearntGyroBias: Bool = false,
                gyroBiasUncertainty: Double = 0, magnetometer: MagnetometerCalibration? = nil) {
        self.gyroBiasUncertainty = gyroBiasUncertainty
        self.reference = reference
        self.gyroBias = gyroBias
        self.hasLearntGyroBias = hasLearntGyroBias
        self.magnetometer = magnetometer
    }

    /// What `estimator` holds now: the one place the estimator's state becomes a calibration.
    package init(_ estimator: borrowing TiltEstimator) {
        let hasGyroscope = estimator.hasGyroscope, hasLearntBias = estimator.attitude.hasLearntBias
        self.init(reference: estimator.reference, gyroBias: estimator.attitude.bias,
                  hasLearntGyroBias: hasGyroscope && hasLearntBias,
                  gyroBiasUncertainty: hasGyroscope ? estimator.attitude.biasUncertainty : 0,
                  magnetometer: estimator.refinedMagnetometerCalibration)
    }
}
