// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// The gyroscope's bias measured on demand: the board put down and kept
/// still, the mean rotation rate over a still stretch is the bias itself.
///
/// Android's CDD (§7.3.4) asks a calibrated gyroscope for a stationary error
/// below 0.002 rad/s within 5 s of stillness. `StillStretchFinder` calls the
/// board still a quarter to half a second after it stops, so `measuringTime`
/// (3 s) of stillness completes a calibration well within the 5 s; real
/// IMU noise (BROAD's, at rest) averages to some 0.0001 rad/s over it.
public struct GyroscopeCalibration: Sendable, Equatable {
    /// rad/s, in the frame the samples were given in (the board's).
    public var bias: Vector3
    /// The standard uncertainty of the largest axis, rad/s.
    public var uncertainty: Double
    /// Seconds of stillness it was measured over.
    public var duration: Double

    public init(bias: Vector3, uncertainty: Double, duration: Double) {
        self.bias = bias
        self.uncertainty = uncertainty
        self.duration = duration
    }

    /// Still time measured over.
    public static let measuringTime = 3.0
    /// The largest uncertainty a calibration is kept with: Android's stationary target.
    public static let largestUncertainty = 0.002

    /// Why a calibration was refused, in words a player can act on.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The samples carry no rotation rate.
        case noGyroscope
        /// The board never lay still long enough (the longest stillness and the time needed, s).
        case notStill(longest: Double, needed: Double)
        /// Still, but the mean wandered more than a bias may (a slow, steady turn).
        case uncertain(Double)

        public var description: String {
            switch self {
            case .noGyroscope:
                "this sensor has no gyroscope"
            case .notStill(let longest, let needed):
                "the board moved: it never lay still for \(Self.seconds(needed)) s"
                    + (longest > 0 ? " (the longest stillness was \(Self.seconds(longest)) s)" : "")
                    + "; put it down on something firm and keep it still"
            case .uncertain(let u):
                "the reading wandered while still (± \(Self.rate(u)) rad/s): something turned it slowly or "
                    + "shook it; put it on something firm, away from fans and motors, and try again"
            }
        }

        static func seconds(_ s: Double) -> String { String(Double((s * 10).rounded()) / 10) }
        static func rate(_ r: Double) -> String { MotionSampleText.decimal(r, digits: 4) }
    }

    /// The calibration from the first still stretch that lasts `measuringTime`
    /// and whose mean is certain enough (all of that stretch: a longer
    /// stillness only averages more noise away); refused, saying why,
    /// when there is none.
    package static func measure(_ stretches: [StillStretch], measuringTime: Double = measuringTime) -> Result<Self, Refusal> {
        guard stretches.contains(where: \.hasRotation) else {
            return .failure(stretches.isEmpty ? .notStill(longest: 0, needed: measuringTime) : .noGyroscope)
        }
        let long = stretches.filter { $0.hasRotation && $0.duration >= measuringTime * 0.98 }
        guard !long.isEmpty else {
            return .failure(.notStill(longest: stretches.map(\.duration).max() ?? 0, needed: measuringTime))
        }
        var refusal = Refusal.noGyroscope
        for stretch in long {
            switch from(stretch) {
            case .success(let calibration): return .success(calibration)
            case .failure(let why): refusal = why
            }
        }
        return .failure(refusal)
    }

    /// The calibration a still stretch gives, refused when its mean is too uncertain.
    package static func from(_ stretch: StillStretch) -> Result<Self, Refusal> {
        guard stretch.hasRotation else { return .failure(.noGyroscope) }
        let u = stretch.rotationUncertainty
        let largest = max(u.x, u.y, u.z)
        guard largest <= largestUncertainty else { return .failure(.uncertain(largest)) }
        return .success(GyroscopeCalibration(bias: stretch.meanRotation, uncertainty: largest, duration: stretch.duration))
    }

    /// `gyroscope bias: x y z rad/s ± u`, as `calibrate --gyroscope --headless` prints it.
    public var line: String {
        func f(_ v: Double) -> String { MotionSampleText.decimal(v, digits: 5) }
        return "gyroscope bias: \(f(bias.x)) \(f(bias.y)) \(f(bias.z)) rad/s ± \(f(uncertainty))"
    }
}
