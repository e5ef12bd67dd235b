// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Decides when the board lies still: then the gyroscope reads its own bias
/// and nothing else, and the accelerometer reads gravity and nothing else.
///
/// The board is at rest when, for `minimumTime`:
/// - the gyroscope's reading stays within `gyroscopeDeviation` of its own
///   recent mean (low-passed over `filterTime`): no turning starts or stops;
/// - that mean is no larger than a bias can be (`maxBias`), and, once the
///   bias is known well, within `biasAgreement` of it: a bias changes slowly
///   with temperature, so a steady reading far from a known bias is a steady
///   turn (a car in a curve, a turntable), not a rest;
/// - the accelerometer stays within `accelerometerDeviation` of its recent mean:
///   no push, tap or vibration;
/// - and its mean has not tilted by more than `maximumTilt` since the rest
///   began: a slow steady turn about a level axis (a few degrees a second)
///   moves the gyroscope's mean too little to notice and the accelerometer
///   too slowly for the deviation test, but it tilts the board.
///
/// The thresholds are VQF's (2 °/s, 0.5 m/s², 1.5 s over a 0.5 s mean), which
/// Laidig & Seel chose on real IMU data; the bias agreement and the tilt
/// test are TiltMaze's, for hobby IMUs whose biases can reach several °/s.
struct RestDetector: Sendable {
    let thresholds: RestThresholds
    /// The largest bias believed, rad/s: a steadier reading than this is a turn.
    let maxBias: Double
    private let cosineOfMaximumTilt: Double
    private var gyroscopeMean: ButterworthLowPass<SIMD4<Double>>
    private var accelerometerMean: ButterworthLowPass<SIMD4<Double>>
    /// Seconds the conditions have held.
    private(set) var stillFor = 0.0
    /// The gyroscope's mean over the last `filterTime`, rad/s.
    private(set) var meanRotation = Vector3.zero
    /// The accelerometer's mean's direction when the current rest began.
    private var restDirection: Vector3?

    init(thresholds: RestThresholds, maxBias: Double) {
        self.thresholds = thresholds
        self.maxBias = maxBias
        cosineOfMaximumTilt = cos(thresholds.maximumTilt)
        gyroscopeMean = ButterworthLowPass()
        accelerometerMean = ButterworthLowPass()
    }

    var isAtRest: Bool { stillFor >= thresholds.minimumTime }

    /// Folds in a gyroscope reading, given what is known of the bias.
    mutating func addRotation(_ rate: Vector3, dt: Double, bias: Vector3, biasIsKnown: Bool) {
        let mean = Vector3(gyroscopeMean.update(SIMD4(rate.x, rate.y, rate.z, 0), dt: dt, timeConstant: thresholds.filterTime))
        meanRotation = mean
        let deviation = rate - mean
        let t = thresholds
        let steady = deviation.dot(deviation) < t.gyroscopeDeviation * t.gyroscopeDeviation
        let plausible = max(abs(mean.x), abs(mean.y), abs(mean.z)) <= maxBias
            && (!biasIsKnown || (mean - bias).length <= t.biasAgreement)
        if !(steady && plausible) { interrupt() }
    }

    /// Folds in an accelerometer reading `dt` seconds after the previous one.
    mutating func addAcceleration(_ force: Vector3, dt: Double) {
        let mean = Vector3(accelerometerMean.update(SIMD4(force.x, force.y, force.z, 0), dt: dt, timeConstant: thresholds.filterTime))
        let deviation = force - mean
        let t = thresholds
        guard deviation.dot(deviation) < t.accelerometerDeviation * t.accelerometerDeviation,
              mean.length > 0 else {
            interrupt()
            return
        }
        let direction = mean / mean.length
        if let start = restDirection {
            if direction.dot(start) < cosineOfMaximumTilt {
                interrupt()
                return
            }
        } else {
            restDirection = direction
        }
        stillFor += dt
    }

    private mutating func interrupt() {
        stillFor = 0
        restDirection = nil
    }
}

extension Vector3 {
    init(_ v: SIMD4<Double>) { self.init(v.x, v.y, v.z) }
}

/// When `RestDetector` calls the board still (see there for why each).
public struct RestThresholds: Sendable, Equatable {
    /// The time constant of the means the readings are compared with, s.
    public var filterTime = 0.5
    /// How long the conditions must hold, s.
    public var minimumTime = 1.5
    /// Largest distance of a gyroscope reading from its mean, rad/s.
    public var gyroscopeDeviation = 2 * Double.pi / 180
    /// Largest distance of an accelerometer reading from its mean, m/s².
    public var accelerometerDeviation = 0.5
    /// Largest tilt of the accelerometer's mean during a rest, rad.
    public var maximumTilt = 2 * Double.pi / 180
    /// Largest distance of the gyroscope's mean from a bias known well, rad/s.
    public var biasAgreement = 2 * Double.pi / 180
    public init() {}
}
