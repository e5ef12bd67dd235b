// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// An accelerometer's bias and scale, in the chip's own axes (before the
/// mount matrix): `apply(a) = matrix · (a − bias)`.
///
/// Hobby IMUs leave the factory with offsets of a tenth of a g or more and
/// scales a few per cent off; the board then reads more or less than 1 g,
/// and a tilt that is level reads as a lean. `matrix` is diagonal (a scale
/// per axis) unless the calibration found cross-axis terms; it is
/// symmetric, since a rotation of the axes changes no reading's length
/// and so cannot be measured this way (the mount matrix holds it).
/// Kept in the chip's axes, it stays right when the mount matrix changes.
public struct AccelerometerCalibration: BitwiseCopyable, Sendable, Equatable {
    /// m/s², chip axes.
    public var bias: Vector3
    /// The rows of the correction matrix (1 on the diagonal: no scale error).
    public var matrix: (Vector3, Vector3, Vector3)

    public init(bias: Vector3 = .zero, matrix: (Vector3, Vector3, Vector3) = (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))) {
        self.bias = bias
        self.matrix = matrix
    }

    /// A bias and a scale per axis.
    public init(bias: Vector3, scale: Vector3) {
        self.init(bias: bias, matrix: (Vector3(scale.x, 0, 0), Vector3(0, scale.y, 0), Vector3(0, 0, scale.z)))
    }

    /// No calibration: readings pass unchanged.
    public static let none = AccelerometerCalibration()

    public var isNone: Bool { self == .none }

    /// Each axis's scale (the matrix's diagonal).
    public var scale: Vector3 { Vector3(matrix.0.x, matrix.1.y, matrix.2.z) }

    /// Whether the matrix has terms off its diagonal.
    public var hasCrossAxisTerms: Bool {
        matrix.0.y != 0 || matrix.0.z != 0 || matrix.1.x != 0 || matrix.1.z != 0 || matrix.2.x != 0 || matrix.2.y != 0
    }

    /// The reading `a` (m/s², chip axes) calibrated.
    @inlinable
    public func apply(_ a: Vector3) -> Vector3 {
        let d = a - bias
        return Vector3(matrix.0.dot(d), matrix.1.dot(d), matrix.2.dot(d))
    }

    /// The reading that `apply` turned into `calibrated`; nil when the matrix cannot be undone.
    public func undo(_ calibrated: Vector3) -> Vector3? {
        guard let inverse = Matrix3(matrix.0, matrix.1, matrix.2).inverse else { return nil }
        return inverse * calibrated + bias
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.bias == b.bias && a.matrix.0 == b.matrix.0 && a.matrix.1 == b.matrix.1 && a.matrix.2 == b.matrix.2
    }
}
