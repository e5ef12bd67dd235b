// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import LibC

/// The board's orientation in a reference frame, as CoreMotion's
/// `CMAttitude` gives it: a quaternion, a rotation matrix and Euler angles,
/// with the same axes and signs, so that numbers read on iOS read the same
/// here.
///
/// The board's axes are CoreMotion's device axes: x to the right, y to the
/// top edge, z out of the face. The reference frame's z points up; where its
/// x points is the ``AttitudeReferenceFrame``'s choice.
///
/// - ``pitch``: the turn about the board's x axis, in [−π/2, π/2]; positive
///   when the top edge rises (a board held upright reads π/2).
/// - ``roll``: the turn about the board's y axis, in [−π, π]; positive when
///   the right edge goes down.
/// - ``yaw``: the turn about the vertical, in [−π, π]; positive counter-clockwise
///   seen from above.
///
/// They compose as yaw, then pitch, then roll (z, then x, then y), and a board
/// lying flat and facing the frame's x reads all three zero.
public struct Attitude: Sendable, Equatable {
    /// Board → reference frame: `quaternion.rotate(v)` turns a board-frame
    /// vector into the reference frame.
    public var quaternion: Quaternion

    /// The attitude whose board → reference rotation is `quaternion` (a unit quaternion).
    public init(_ quaternion: Quaternion) {
        self.quaternion = quaternion
    }

    /// The turn about the board's x axis, radians in [−π/2, π/2]: positive when the top edge rises.
    public var pitch: Double {
        let q = quaternion
        return asin(min(1, max(-1, 2 * (q.w * q.x + q.y * q.z))))
    }

    /// The turn about the board's y axis, radians in [−π, π]: positive when the right edge goes down.
    public var roll: Double {
        let q = quaternion
        return atan2(2 * (q.w * q.y - q.x * q.z), 1 - 2 * (q.x * q.x + q.y * q.y))
    }

    /// The turn about the vertical, radians in [−π, π]: positive anticlockwise seen from above.
    public var yaw: Double {
        let q = quaternion
        return atan2(2 * (q.w * q.z - q.x * q.y), 1 - 2 * (q.x * q.x + q.z * q.z))
    }

    /// As CoreMotion's `rotationMatrix`: it turns a vector given in the
    /// reference frame into the board's frame (`v_board = M · v_reference`),
    /// so its third column is "up" in the board, and gravity's direction is
    /// that column negated.
    public var rotationMatrix: RotationMatrix {
        let (w, x, y, z) = (quaternion.w, quaternion.x, quaternion.y, quaternion.z)
        // The transpose of the quaternion's board → reference matrix.
        return RotationMatrix(m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + w * z), m13: 2 * (x * z - w * y),
                              m21: 2 * (x * y - w * z), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + w * x),
                              m31: 2 * (x * z + w * y), m32: 2 * (y * z - w * x), m33: 1 - 2 * (x * x + y * y))
    }

    /// Makes this attitude relative to `reference`, as CoreMotion's
    /// `multiply(byInverseOf:)` does: afterwards it is the board's turn since
    /// it was at `reference`, in the frame the board had then. Capture an
    /// attitude when the player holds the board as they mean "level", and
    /// pitch and roll of every later one relative to it read from there
    /// (the iOS tutorials' calibrated reference attitude).
    public mutating func multiply(byInverseOf reference: Attitude) {
        quaternion = (reference.quaternion.conjugate * quaternion).normalized
    }

    /// This attitude relative to `reference`; see ``multiply(byInverseOf:)``.
    public func multiplied(byInverseOf reference: Attitude) -> Attitude {
        var copy = self
        copy.multiply(byInverseOf: reference)
        return copy
    }
}

/// A 3×3 rotation matrix, as CoreMotion's `CMRotationMatrix` (rows m1·, m2·, m3·).
public struct RotationMatrix: Sendable, Equatable {
    /// Row 1, columns 1 to 3.
    public var m11: Double, m12: Double, m13: Double
    /// Row 2, columns 1 to 3.
    public var m21: Double, m22: Double, m23: Double
    /// Row 3, columns 1 to 3.
    public var m31: Double, m32: Double, m33: Double

    /// A matrix from its entries, row by row.
    public init(m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// `self · v`.
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(m11 * v.x + m12 * v.y + m13 * v.z, m21 * v.x + m22 * v.y + m23 * v.z, m31 * v.x + m32 * v.y + m33 * v.z)
    }
}

/// The magnetic field with its calibration's accuracy, as CoreMotion's
/// `CMCalibratedMagneticField`.
public struct CalibratedMagneticField: Sendable, Equatable {
    /// µT, board frame, with the learnt offset taken out.
    public var field: Vector3
    /// How far the calibration behind `field` is trusted.
    public var accuracy: MagneticFieldAccuracy

    /// A field with its accuracy.
    public init(field: Vector3, accuracy: MagneticFieldAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }
}
