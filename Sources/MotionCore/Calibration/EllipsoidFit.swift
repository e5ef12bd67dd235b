// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Fits an ellipsoid to magnetometer readings taken while the board turns
/// through many directions: hard and soft iron (`MagnetometerCalibration`).
///
/// Least squares on the quadric mᵀ·Q·m + 2·bᵀ·m = 1 (nine unknowns: Q's six,
/// b's three), which is linear. Setting its constant to 1 assumes zero lies
/// inside the ellipsoid, that is the offset is smaller than the field: an
/// offset as large as the Earth's field means a magnet on the chip, which no
/// calibration should hide. The centre is −Q⁻¹b; the ellipsoid
/// (m − c)ᵀ·(Q/k)·(m − c) = 1 with k = 1 + cᵀQc; the soft-iron matrix is the
/// symmetric square root of Q/k, scaled to the geometric mean radius.
///
/// The sums are kept in fixed storage, so readings can be folded in on a
/// thread that must not allocate.
public struct EllipsoidFit: Sendable {
    /// Σ v·vᵀ (9×9, row by row) and Σ v, v = (x², y², z², 2xy, 2xz, 2yz, 2x, 2y, 2z).
    private var normal = InlineArray<81, Double>(repeating: 0)
    private var right = InlineArray<9, Double>(repeating: 0)
    public private(set) var count = 0

    public init() {}

    public mutating func add(_ m: Vector3) {
        let v: InlineArray<9, Double> = [m.x * m.x, m.y * m.y, m.z * m.z, 2 * m.x * m.y, 2 * m.x * m.z, 2 * m.y * m.z,
                                         2 * m.x, 2 * m.y, 2 * m.z]
        for i in 0 ..< 9 {
            right[i] += v[i]
            for j in 0 ..< 9 { normal[9 * i + j] += v[i] * v[j] }
        }
        count += 1
    }

    /// The fit: the calibration (accuracy left uncalibrated: that is the
    /// caller's judgement, with the coverage), the field's strength after
    /// it (µT) and the readings' RMS distance from the fitted surface as a
    /// fraction of that strength. Nil with too few readings, or when they
    /// fit no ellipsoid (a plane or a line of readings: the board turned
    /// about one axis only).
    public func solve() -> (calibration: MagnetometerCalibration, strength: Double, residual: Double)? {
        guard count >= 20, let p = SmallLinearSystem.solve(normal, right, size: 9) else { return nil }
        let q = Matrix3(Vector3(p[0], p[3], p[4]), Vector3(p[3], p[1], p[5]), Vector3(p[4], p[5], p[2]))
        guard let inverse = q.inverse else { return nil }
        let centre = Vector3(0, 0, 0) - inverse * Vector3(p[6], p[7], p[8])
        let k = 1 + centre.dot(q * centre)
        guard k > 0 else { return nil }
        let shape = q * (1 / k)
        let (values, vectors) = shape.symmetricEigen
        guard values.x > 0, values.y > 0, values.z > 0 else { return nil }
        // Radii 1/√λ; the geometric mean radius R = (λ₁λ₂λ₃)^(−1/6).
        let strength = pow(values.x * values.y * values.z, -1.0 / 6)
        let root = Vector3(values.x.squareRoot(), values.y.squareRoot(), values.z.squareRoot()) * strength
        // Σ rootₖ·eₖ·eₖᵀ over the eigenvectors eₖ (the rows of `vectors`).
        func outer(_ e: Vector3, _ s: Double) -> Matrix3 { Matrix3(e * (e.x * s), e * (e.y * s), e * (e.z * s)) }
        let m = outer(vectors.r0, root.x) + outer(vectors.r1, root.y) + outer(vectors.r2, root.z)
        let soft = (m.r0, m.r1, m.r2)
        // Σ(vᵀp − 1)² from the sums; vᵀp − 1 = k·((m − c)ᵀ·shape·(m − c) − 1) ≈ 2k·(relative radial error).
        var quadratic = 0.0, linear = 0.0
        for i in 0 ..< 9 {
            linear += p[i] * right[i]
            for j in 0 ..< 9 { quadratic += p[i] * normal[9 * i + j] * p[j] }
        }
        let algebraic = max((quadratic - 2 * linear + Double(count)) / Double(count), 0).squareRoot()
        return (MagnetometerCalibration(offset: centre, softIron: soft), strength, algebraic / (2 * k))
    }
}
