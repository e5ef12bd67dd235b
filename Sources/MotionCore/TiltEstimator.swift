// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Turns a stream of samples into the direction of gravity in the board's frame,
/// which is what the physics needs: the ball rolls along gravity's component in
/// the board's plane.
///
/// With a gyroscope, the attitude filter (`AttitudeFilter`) fuses it with the
/// accelerometer: fast tilts are followed at once, shakes are rejected, the
/// gyroscope's drift is learnt. Without one (an accelerometer-only device), a
/// low-pass filter on the accelerometer, whose cut-off in hertz holds at any
/// rate: hand jitter and the ball's own shaking are faster than a deliberate tilt.
///
/// Without a gyroscope but with a magnetometer, `CompassTilt`: the field's
/// direction in the board moves when the board turns and not when it is
/// pushed.
///
/// With neither, nothing tells a push from a tilt, and the cut-off only
/// trades one for the other. Measured on the 30 BROAD trials (mean RMS after
/// 2 s; Benchmarks/accuracy/broad.py): 5 Hz 17.7°, 2 Hz 20.0°, 1 Hz 23.2°,
/// 0.5 Hz 26.7° (slower cut-offs halve the error on fast translation and
/// multiply it on rotation); holding the average while the reading's
/// magnitude is off 1 g made it worse too (19.9–25.9°), since a board
/// turned quickly reads more or less than 1 g as well. 5 Hz is also the
/// snappiest to a real tilt (70 ms to 90 %).
public struct TiltEstimator: Sendable {
    private var filter: LowPassFilter
    package private(set) var attitude = AttitudeFilter()
    private var compass = CompassTilt(parameters: CompassTiltParameters())
    /// Whether any sample carried a rotation rate: the fused estimate is used from then on.
    public private(set) var hasGyroscope = false
    /// Whether any sample carried a magnetic field: without a gyroscope, it
    /// tells a push from a tilt (`CompassTilt`).
    public private(set) var hasMagnetometer = false
    public private(set) var samplesSeen = 0
    public private(set) var lastTimestamp: Int64 = 0
    /// The player's neutral tilt, which `gravity` is measured from.
    public var reference: TiltReference

    /// - Parameters:
    ///   - cutoffHz: the accelerometer-only low-pass cut-off; 5 Hz keeps a
    ///     tilt snappy and hides tremor.
    ///   - reference: the player's neutral tilt (level when not calibrated).
    ///   - gyroBias: the gyroscope's bias remembered from an earlier run,
    ///     rad/s: the filter starts from it instead of learning it anew.
    ///   - magnetometer: the magnetometer's stored hard and soft iron, applied to every field reading.
    public init(cutoffHz: Double = 5, reference: TiltReference = .level, gyroBias: Vector3 = .zero,
                magnetometer: MagnetometerCalibration = .none) {
        filter = LowPassFilter(cutoffHz: cutoffHz)
        self.reference = reference
        attitude.seedBias(gyroBias)
        attitude.magnetometerCalibration = magnetometer
        compass.magnetometerCalibration = magnetometer
    }

    /// The stored magnetometer calibration with the offset learnt while
    /// turning folded in, once its fit is good enough to keep; nil before.
    public var refinedMagnetometerCalibration: MagnetometerCalibration? {
        attitude.refinedMagnetometerCalibration
    }

    /// Folds in one sample.
    public mutating func add(_ sample: MotionSample) {
        attitude.add(sample)
        if sample.hasRotationRate { hasGyroscope = true }
        if sample.hasMagneticField { hasMagnetometer = true }
        if !hasGyroscope && hasMagnetometer { compass.add(sample) }
        guard sample.hasAcceleration else { return }
        filter.update(sample.acceleration, timestamp: sample.timestamp)
        samplesSeen &+= 1
        lastTimestamp = sample.timestamp
    }

    /// Whether the heading has a north: a magnetometer reading was trusted,
    /// by the attitude filter with a gyroscope, by `CompassTilt` without.
    public var hasNorth: Bool { hasGyroscope ? attitude.hasNorth : compass.hasNorth }

    /// Applies what the player did to the neutral, given gravity as measured now.
    public mutating func changeReference(_ change: ReferenceChange) {
        reference = change.applied(to: reference, measuredGravity: measuredGravity)
    }

    /// Gravity in the board's frame, m/s², as measured: the fused estimate
    /// with a gyroscope, else the opposite of the filtered specific force.
    /// Zero until the first acceleration arrives (the ball then stays put).
    public var measuredGravity: Vector3 {
        guard samplesSeen > 0 else { return .zero }
        if hasGyroscope && attitude.isAligned { return attitude.up * -standardGravity }
        if !hasGyroscope && hasMagnetometer && compass.isAligned { return compass.up * -standardGravity }
        return .zero - filter.value
    }

    /// Board → earth in `frame`: the attitude filter's with a gyroscope;
    /// without one but with a magnetometer, `CompassTilt`'s (a
    /// tilt-compensated compass in the magnetic frames); with neither, the
    /// tilt of `measuredGravity` with no heading.
    public func attitude(in frame: AttitudeReferenceFrame) -> Quaternion {
        if hasGyroscope && attitude.isAligned { return attitude.attitude(in: frame) }
        if !hasGyroscope && hasMagnetometer && compass.isAligned { return compass.attitude(in: frame) }
        let g = measuredGravity
        return g.length > 0 ? AttitudeFilter.aligned(with: .zero - g / g.length) : .identity
    }

    /// Gravity as the player means it: `measuredGravity` seen from the
    /// neutral tilt, so the board held at the neutral reads as level.
    public var gravity: Vector3 { reference.apply(to: measuredGravity) }
}
