// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What CoreMotion's `CMDeviceMotion` gives an app, per sample: the fused
/// attitude, gravity and the player's own push apart, the bias-free rotation
/// rate, and a shake when one fires. `monitor --json` prints it; ColorTilt
/// reads it.
public struct MotionProcessor: Sendable {
    public private(set) var estimator: TiltEstimator
    public private(set) var shakes: ShakeDetector
    /// The frame the attitude is given in; the heading is given only in `xMagneticNorthZVertical`.
    public var referenceFrame: AttitudeReferenceFrame

    public init(estimator: TiltEstimator = TiltEstimator(), shakes: ShakeDetector = ShakeDetector(),
                referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical) {
        self.estimator = estimator
        self.shakes = shakes
        self.referenceFrame = referenceFrame
    }

    /// Changes the neutral tilt that `estimator.gravity` is measured from.
    public mutating func changeReference(_ change: ReferenceChange) { estimator.changeReference(change) }

    /// Folds in `sample` for the estimate alone: no fused motion, no shake
    /// (what the game's physics needs, and all it pays for).
    public mutating func estimate(_ sample: MotionSample) { estimator.add(sample) }

    /// Folds in `sample` and returns the motion as of it, and the shake it completed, if any.
    public mutating func add(_ sample: MotionSample) -> (motion: FusedMotion, shake: Shake?) {
        estimator.add(sample)
        // Gravity as measured (not seen from the player's neutral): user
        // acceleration is what is left of the reading once real gravity is out.
        let gravity = estimator.measuredGravity
        var motion = estimator.attitude.motion(for: sample)
        motion.magneticField = estimator.attitude.magneticField
        motion.magneticAccuracy = estimator.attitude.magneticAccuracy
        if estimator.hasGyroscope, referenceFrame.usesMagnetometer {
            motion.attitude = estimator.attitude.attitude(in: referenceFrame)
            if referenceFrame == .xMagneticNorthZVertical, estimator.attitude.hasNorth {
                motion.heading = FusedMotion.heading(of: motion.attitude)
            }
        }
        if !estimator.hasGyroscope {
            // No gyroscope: the estimator's gravity (the low-pass, or the
            // compass's tilt) is the better one, and the attitude is the one
            // that has it: with a magnetometer, a tilt-compensated compass's
            // in the frame asked for; without, with the heading unknown (zero).
            motion.gravity = gravity
            motion.attitude = estimator.attitude(in: referenceFrame)
            if referenceFrame == .xMagneticNorthZVertical, estimator.hasNorth {
                motion.heading = FusedMotion.heading(of: motion.attitude)
            }
            motion.userAcceleration = sample.hasAcceleration ? sample.acceleration + gravity : .zero
        }
        let shake = sample.hasAcceleration && estimator.samplesSeen > 1
            ? shakes.add(userAcceleration: motion.userAcceleration, at: sample.timestamp) : nil
        return (motion, shake)
    }
}
