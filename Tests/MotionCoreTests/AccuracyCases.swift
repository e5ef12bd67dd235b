// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Foundation

/// The five motions of Benchmarks/accuracy/compare.py, ported sample for
/// sample (the same seeded generator, the same formulas), so the filter's
/// accuracy against exact truth is checked on every test run, at seeds the
/// benchmark's table does not use. compare.py runs VQF and Fusion on the
/// same kind of data; these tests hold TiltMaze to bounds at or below what
/// VQF reaches there.
enum AccuracyCases {
    static let g = standardGravity   // compare.py's G, 9.80665

    /// compare.py's generator: a 64-bit LCG, the top 53 bits as a double.
    struct Random {
        var state: UInt64
        init(seed: UInt64) {
            let s = seed &* 2_654_435_761
            state = s == 0 ? 1 : s
        }
        mutating func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
        mutating func gauss() -> Double {
            let u = uniform(), v = uniform()
            return (-2 * log(1 - u)).squareRoot() * cos(2 * .pi * v)
        }
    }

    struct Case {
        let name: String
        let attitude: (Double) -> Quaternion
        let acceleration: (Double) -> Vector3
        let bias: Vector3
    }

    static func euler(_ roll: Double, _ pitch: Double, _ yaw: Double) -> Quaternion {
        Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            * Quaternion(axis: Vector3(1, 0, 0), angle: roll)
    }

    static func radians(_ d: Double) -> Double { d * .pi / 180 }

    static func cases(seed: UInt64) -> [Case] {
        var rng = Random(seed: seed)
        var shakes: [(start: Double, length: Double, a: Vector3)] = []
        var t = 3.0
        while t < 60 {
            let d = Vector3(rng.gauss(), rng.gauss(), 0.5 * rng.gauss())
            let magnitude = (1 + rng.uniform()) * g
            let length = 0.08 + 0.2 * rng.uniform()
            shakes.append((t, length, d / d.length * magnitude))
            t += 1.5 + 2 * rng.uniform()
        }
        let player: (Double) -> Quaternion = { t in euler(0.4 * sin(0.9 * t), 0.3 * sin(0.6 * t + 1), 0.2 * sin(0.3 * t)) }
        let none: (Double) -> Vector3 = { _ in .zero }
        let axis = Vector3(sin(radians(30)), 0, cos(radians(30)))
        return [
            Case(name: "static tilt", attitude: { _ in euler(radians(20), radians(-10), 0.3) }, acceleration: none, bias: .zero),
            Case(name: "slow tilting", attitude: player, acceleration: none, bias: .zero),
            Case(name: "tilting with 1-2 g shakes", attitude: player, acceleration: { t in
                for s in shakes where s.start <= t && t < s.start + s.length {
                    return s.a * sin(2 * .pi * (t - s.start) / s.length)
                }
                return .zero
            }, bias: .zero),
            Case(name: "rotation about a tilted axis",
                 attitude: { t in Quaternion(axis: axis, angle: radians(90) * t) * euler(radians(15), 0, 0) },
                 acceleration: none, bias: .zero),
            Case(name: "gyro bias 1-2 deg/s", attitude: player, acceleration: none,
                 bias: Vector3(radians(1.5), radians(-1.0), radians(2.0))),
        ]
    }

    /// The rotation vector of `q`, the short way round.
    static func rotationVector(_ q: Quaternion) -> Vector3 {
        let q = q.w < 0 ? Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) : q
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        if s < 1e-15 { return Vector3(2 * q.x, 2 * q.y, 2 * q.z) }
        let angle = 2 * atan2(s, q.w)
        return Vector3(q.x, q.y, q.z) / s * angle
    }

    /// Samples and the true up per sample, as compare.py's `trajectory`.
    static func trajectory(_ c: Case, rate: Double, seconds: Double, seed: UInt64) -> (samples: [MotionSample], ups: [Vector3]) {
        var rng = Random(seed: seed)
        let dt = 1 / rate
        var samples: [MotionSample] = [], ups: [Vector3] = []
        var previous = c.attitude(0)
        for k in 1...Int(seconds * rate) {
            let t = Double(k) * dt
            let q = c.attitude(t)
            let w = rotationVector(previous.conjugate * q)
            let gyro = Vector3(w.x / dt + c.bias.x + 0.005 * rng.gauss(), w.y / dt + c.bias.y + 0.005 * rng.gauss(),
                               w.z / dt + c.bias.z + 0.005 * rng.gauss())
            let a = c.acceleration(t)
            let force = q.conjugate.rotate(Vector3(a.x, a.y, a.z + g))
            let accel = Vector3(force.x + 0.05 * rng.gauss(), force.y + 0.05 * rng.gauss(), force.z + 0.05 * rng.gauss())
            samples.append(MotionSample(timestamp: Int64((t * 1e9).rounded()), acceleration: accel, rotationRate: gyro,
                                        fields: [.acceleration, .rotationRate]))
            ups.append(q.conjugate.rotate(Vector3(0, 0, 1)))
            previous = q
        }
        return (samples, ups)
    }

    /// RMS and max angle (degrees) between estimated and true up, after `skip` seconds.
    static func score(_ estimates: [Vector3], _ truth: [Vector3], rate: Double, skip: Double = 2) -> (rms: Double, max: Double) {
        let start = Int(skip * rate)
        let errors = zip(estimates[start...], truth[start...]).map { e, t in
            acos(min(1, max(-1, e.dot(t) / (e.length * t.length)))) * 180 / .pi
        }
        return ((errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot(), errors.max() ?? 0)
    }
}
