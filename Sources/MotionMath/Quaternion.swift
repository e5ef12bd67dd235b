// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A rotation as a unit quaternion `w + xi + yj + zk`. TiltMaze's attitudes
/// rotate board vectors into the earth frame (earth z up).
public struct Quaternion: Sendable, Equatable, BitwiseCopyable, CustomStringConvertible {
    public var w: Double, x: Double, y: Double, z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The rotation by `angle` radians about the unit vector `axis`.
    @inlinable
    public init(axis: Vector3, angle: Double) {
        let h = angle / 2, s = sin(h)
        self.init(w: cos(h), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// The rotation by the rotation vector `v` (axis × angle); exact for any size.
    @inlinable
    public init(rotationVector v: Vector3) {
        let angle = v.length
        guard angle > 1e-12 else {
            self = Quaternion(w: 1, x: v.x / 2, y: v.y / 2, z: v.z / 2).normalized
            return
        }
        self.init(axis: v / angle, angle: angle)
    }

    @inlinable
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    @inlinable
    public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// `v` rotated by this rotation (q v q*).
    @inlinable
    public func rotate(_ v: Vector3) -> Vector3 {
        // v + 2 u × (u × v + w v), u = (x, y, z): no quaternion products needed.
        let u = Vector3(x, y, z)
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    public var description: String { "[\(w), \(x), \(y), \(z)]" }
}
