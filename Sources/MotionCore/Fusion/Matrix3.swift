// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A 3×3 matrix of rows, for the bias estimator's small Kalman filter: just
/// the products, transpose and inverse it needs, all on the stack.
struct Matrix3: Sendable, Equatable {
    var r0: Vector3, r1: Vector3, r2: Vector3

    init(_ r0: Vector3, _ r1: Vector3, _ r2: Vector3) { self.r0 = r0; self.r1 = r1; self.r2 = r2 }

    static let identity = Matrix3(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    static func diagonal(_ d: Vector3) -> Matrix3 { Matrix3(Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z)) }

    /// The rotation matrix of a unit quaternion: `m * v == q.rotate(v)`.
    init(rotation q: Quaternion) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        self.init(Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
                  Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
                  Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    var transposed: Matrix3 {
        Matrix3(Vector3(r0.x, r1.x, r2.x), Vector3(r0.y, r1.y, r2.y), Vector3(r0.z, r1.z, r2.z))
    }

    var diagonal: Vector3 { Vector3(r0.x, r1.y, r2.z) }

    static func * (m: Matrix3, v: Vector3) -> Vector3 { Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v)) }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(Vector3(a.r0.dot(t.r0), a.r0.dot(t.r1), a.r0.dot(t.r2)),
                       Vector3(a.r1.dot(t.r0), a.r1.dot(t.r1), a.r1.dot(t.r2)),
                       Vector3(a.r2.dot(t.r0), a.r2.dot(t.r1), a.r2.dot(t.r2)))
    }

    static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2) }
    static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2) }

    /// The inverse by the adjugate; nil when the matrix is singular.
    var inverse: Matrix3? {
        // The columns of the inverse are the cross products of the rows, over the determinant.
        let c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1)
        let det = r0.dot(c0)
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        return Matrix3(c0 / det, c1 / det, c2 / det).transposed
    }

    /// The smallest eigenvalue of a symmetric matrix, in closed form
    /// (the trigonometric solution of its characteristic cubic).
    var smallestSymmetricEigenvalue: Double {
        let offDiagonal = r0.y * r0.y + r0.z * r0.z + r1.z * r1.z
        let q = (r0.x + r1.y + r2.z) / 3
        let spread = (r0.x - q) * (r0.x - q) + (r1.y - q) * (r1.y - q) + (r2.z - q) * (r2.z - q) + 2 * offDiagonal
        guard spread > 1e-300 else { return q }
        let p = (spread / 6).squareRoot()
        let b = (self - .diagonal(Vector3(q, q, q))) * (1 / p)
        let half = b.r0.dot(b.r1.cross(b.r2)) / 2
        let phi = acos(min(1, max(-1, half))) / 3
        return q + 2 * p * cos(phi + 2 * Double.pi / 3)
    }

    static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(m.r0 * s, m.r1 * s, m.r2 * s) }

    /// The eigenvalues of a symmetric matrix and its unit eigenvectors (as
    /// the rows of `vectors`, in the values' order), by Jacobi rotations.
    var symmetricEigen: (values: Vector3, vectors: Matrix3) {
        // Row by row, on the stack: the fit runs on threads that must not allocate.
        var a: InlineArray<9, Double> = [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
        var v: InlineArray<9, Double> = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        for _ in 0 ..< 50 {
            // The largest off-diagonal entry.
            var p = 0, q = 1
            if abs(a[2]) > abs(a[3 * p + q]) { (p, q) = (0, 2) }
            if abs(a[5]) > abs(a[3 * p + q]) { (p, q) = (1, 2) }
            let scale = abs(a[0]) + abs(a[4]) + abs(a[8])
            guard abs(a[3 * p + q]) > 1e-15 * max(scale, 1e-300) else { break }
            let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * a[3 * p + q])
            let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot(), s = t * c
            for k in 0 ..< 3 {
                let akp = a[3 * k + p], akq = a[3 * k + q]
                a[3 * k + p] = c * akp - s * akq
                a[3 * k + q] = s * akp + c * akq
            }
            for k in 0 ..< 3 {
                let apk = a[3 * p + k], aqk = a[3 * q + k]
                a[3 * p + k] = c * apk - s * aqk
                a[3 * q + k] = s * apk + c * aqk
            }
            for k in 0 ..< 3 {
                let vkp = v[3 * k + p], vkq = v[3 * k + q]
                v[3 * k + p] = c * vkp - s * vkq
                v[3 * k + q] = s * vkp + c * vkq
            }
        }
        // v's columns are the eigenvectors.
        return (Vector3(a[0], a[4], a[8]),
                Matrix3(Vector3(v[0], v[3], v[6]), Vector3(v[1], v[4], v[7]), Vector3(v[2], v[5], v[8])))
    }
}
