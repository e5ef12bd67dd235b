// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A magnetometer's hard and soft iron: `apply(m) = softIron · (m − offset)`.
///
/// Hard iron (a magnetised part near the chip) adds a constant `offset`; soft
/// iron (unmagnetised steel, and the chip's own unequal axes) stretches the
/// field along some directions, so readings of a fixed field taken while the
/// board turns lie on an ellipsoid about the offset instead of a sphere about
/// zero. `softIron` is the symmetric matrix that turns that ellipsoid back into
/// a sphere, scaled so that the sphere's radius is the ellipsoid's geometric
/// mean radius: the field keeps its strength on average.
public struct MagnetometerCalibration: BitwiseCopyable, Sendable, Equatable {
    /// µT, board frame.
    public var offset: Vector3
    /// The rows of the symmetric soft-iron matrix.
    public var softIron: (Vector3, Vector3, Vector3)
    /// How far the fit that made it is trusted.
    public var accuracy: MagneticFieldAccuracy

    public init(offset: Vector3 = .zero, softIron: (Vector3, Vector3, Vector3) = (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)),
                accuracy: MagneticFieldAccuracy = .uncalibrated) {
        self.offset = offset
        self.softIron = softIron
        self.accuracy = accuracy
    }

    /// No calibration: readings pass unchanged.
    public static let none = MagnetometerCalibration()

    /// The reading `m` (µT) calibrated.
    @inlinable
    public func apply(_ m: Vector3) -> Vector3 {
        let d = m - offset
        return Vector3(softIron.0.dot(d), softIron.1.dot(d), softIron.2.dot(d))
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.offset == b.offset && a.softIron.0 == b.softIron.0 && a.softIron.1 == b.softIron.1
            && a.softIron.2 == b.softIron.2 && a.accuracy == b.accuracy
    }
}
