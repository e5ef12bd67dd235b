// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// How far a magnetometer's calibration is trusted, in CoreMotion's four
/// levels (`CMMagneticFieldCalibrationAccuracy`, with its raw values).
public enum MagneticFieldAccuracy: Int, Sendable, Hashable, CaseIterable, Comparable, BitwiseCopyable {
    /// No calibration is known: the field is the sensor's own reading, hard
    /// and soft iron included.
    case uncalibrated = -1
    case low = 0
    case medium = 1
    case high = 2

    /// From a fit's RMS distance of the readings from its sphere, as a
    /// fraction of the field's strength: the noise of a good hobby
    /// magnetometer is about 1–2 % of the Earth's field.
    package init(fitResidual: Double) {
        switch fitResidual {
        case ...0.015: self = .high
        case ...0.03: self = .medium
        default: self = .low
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The word `monitor --json` prints.
    package var name: String {
        switch self {
        case .uncalibrated: "uncalibrated"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}
