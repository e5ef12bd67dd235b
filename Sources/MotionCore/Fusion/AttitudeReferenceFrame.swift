// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The earth frame an attitude is given in, as CoreMotion names them. In
/// all three z points up, against gravity; they differ in where x points.
public enum AttitudeReferenceFrame: String, Sendable, Hashable, CaseIterable {
    /// x is where the board's x pointed when the filter started, as far as
    /// the gyroscope can keep it: it drifts slowly (a degree or a few a
    /// minute). Needs no magnetometer; the game uses this one.
    case xArbitraryZVertical
    /// As `xArbitraryZVertical`, but the magnetometer keeps x from drifting:
    /// x is fixed relative to magnetic north, where the board's x pointed
    /// when the first field reading arrived.
    case xArbitraryCorrectedZVertical
    /// x points to magnetic north (the horizontal part of the field), y west.
    case xMagneticNorthZVertical

    /// The frame as `tiltmaze monitor --reference` names it.
    package var argument: String {
        switch self {
        case .xArbitraryZVertical: "arbitrary"
        case .xArbitraryCorrectedZVertical: "corrected"
        case .xMagneticNorthZVertical: "magnetic-north"
        }
    }

    /// The frame `argument` names, if any.
    package init?(argument: String) {
        guard let frame = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = frame
    }

    /// Whether the frame's x is tied to the magnetic field.
    public var usesMagnetometer: Bool { self != .xArbitraryZVertical }
}
