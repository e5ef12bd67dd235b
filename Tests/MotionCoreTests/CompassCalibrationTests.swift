// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import LibC

/// The compass calibration on readings whose hard and soft iron are known:
/// a field of 48 µT seen by a board turned through a figure of eight,
/// through a sensor that adds an offset and stretches one tilted axis.
@Suite("Compass calibration: the ellipsoid fit and its coverage")
struct CompassCalibrationTests {
    static let field = Vector3(20, 0, -43.6)
    static let offset = Vector3(18, -7, 31)
    /// A symmetric stretch: 1.15 along (1, 1, 0)/√2, 0.9 along z, 1 along the rest.
    static func distort(_ v: Vector3) -> Vector3 {
        let a = Vector3(1, 1, 0) / 2.0.squareRoot()
        let along = a.dot(v), up = v.z
        return v + a * (0.15 * along) + Vector3(0, 0, -0.1 * up)
    }

    /// Readings over `seconds` at 50 Hz of a board turning about all axes
    /// (heading round and round, pitch and roll swinging to ±80°), or only
    /// about its z axis; `noise` µT of deterministic noise.
    static func readings(seconds: Double = 60, allAxes: Bool = true, noise: Double = 0.3) -> [(Vector3, Int64)] {
        var out: [(Vector3, Int64)] = []
        var seed: UInt64 = 7
        func jitter() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 2 * noise
        }
        for i in 0 ..< Int(seconds * 50) {
            let t = Double(i) / 50
            var q = Quaternion(axis: Vector3(0, 0, 1), angle: 0.7 * t)
            if allAxes {
                q = q * Quaternion(axis: Vector3(1, 0, 0), angle: 1.4 * sin(0.53 * t))
                    * Quaternion(axis: Vector3(0, 1, 0), angle: 1.4 * sin(0.31 * t))
            }
            let board = q.conjugate.rotate(field)
            let m = distort(board) + offset + Vector3(jitter(), jitter(), jitter())
            out.append((m, Int64(t * 1e9)))
        }
        return out
    }

    @Test("A figure of eight gives back the offset and a sphere of the field's strength, with high accuracy")
    func recovers() throws {
        var calibrator = CompassCalibrator()
        for (m, t) in Self.readings() { calibrator.add(m, at: t) }
        let result = try #require(calibrator.result())
        #expect((result.calibration.offset - Self.offset).length < 0.5, "offset \(result.calibration.offset)")
        #expect(result.coverage > 0.8, "coverage \(result.coverage)")
        #expect(result.residual < 0.015, "residual \(result.residual)")
        #expect(result.calibration.accuracy == .high)
        // Every calibrated reading has about the same strength, whatever the direction.
        var worst = 0.0
        for (m, _) in Self.readings(noise: 0) {
            worst = max(worst, abs(result.calibration.apply(m).length - result.strength) / result.strength)
        }
        #expect(worst < 0.01, "strength varies by \(worst * 100) %")
        // And the uncalibrated readings do not: the fit had something to do.
        let raw = Self.readings(noise: 0).map { $0.0.length }
        #expect((raw.max()! - raw.min()!) / result.strength > 0.3)
    }

    @Test("Turning about one axis only covers a ring: no high accuracy")
    func oneAxis() {
        var calibrator = CompassCalibrator()
        for (m, t) in Self.readings(allAxes: false) { calibrator.add(m, at: t) }
        if let result = calibrator.result() {
            #expect(result.coverage < 0.6, "coverage \(result.coverage)")
            #expect(result.calibration.accuracy < .medium)
        }
    }

    @Test("Readings closer together than the spacing are not kept; the store holds at most its capacity")
    func spacing() {
        var calibrator = CompassCalibrator(capacity: 100, spacing: 20_000_000)
        for i in 0 ..< 1000 { calibrator.add(Vector3(Double(i), 1, 1), at: Int64(i) * 5_000_000) }
        // 5 s in 5 ms steps: one kept per 20 ms is 250, capped at 100.
        #expect(calibrator.count == 100)
        calibrator.add(Vector3(.nan, 0, 0), at: 100_000_000_000)
        #expect(calibrator.count == 100)
    }

    @Test("Accuracy levels follow coverage and residual, the weaker deciding")
    func levels() {
        #expect(CompassCalibrator.accuracy(coverage: 0.9, residual: 0.01) == .high)
        #expect(CompassCalibrator.accuracy(coverage: 0.9, residual: 0.025) == .medium)
        #expect(CompassCalibrator.accuracy(coverage: 0.5, residual: 0.01) == .low)
        #expect(CompassCalibrator.accuracy(coverage: 0.3, residual: 0.01) == .uncalibrated)
        #expect(CompassCalibrator.accuracy(coverage: 0.9, residual: 0.1) == .uncalibrated)
    }

    @Test("The attitude filter applies the calibration: north found through a distorted sensor")
    func appliedInTheFilter() throws {
        var calibrator = CompassCalibrator()
        for (m, t) in Self.readings() { calibrator.add(m, at: t) }
        let calibration = try #require(calibrator.result()).calibration
        var parameters = AttitudeFilter.Parameters()
        parameters.hardIron.isEnabled = false
        func worstHeading(calibrated: Bool) -> Double {
            var filter = AttitudeFilter(parameters: parameters)
            if calibrated { filter.magnetometerCalibration = calibration }
            var worst = 0.0
            // A board lying flat and turning: the field is seen through the sensor's iron.
            for i in 1 ... 3000 {
                let t = Double(i) / 100
                let q = Quaternion(axis: Vector3(0, 0, 1), angle: 0.5 * t)
                filter.add(MotionSample(timestamp: Int64(t * 1e9), acceleration: Vector3(0, 0, standardGravity),
                                        rotationRate: Vector3(0, 0, 0.5),
                                        magneticField: Self.distort(q.conjugate.rotate(Self.field)) + Self.offset,
                                        fields: .all))
                guard t > 10 else { continue }
                let e = filter.attitude(in: .xMagneticNorthZVertical) * q.conjugate
                var a = 2 * atan2(e.z, e.w) * 180 / .pi
                a = remainder(a, 360)
                worst = max(worst, abs(a))
            }
            return worst
        }
        let without = worstHeading(calibrated: false), with = worstHeading(calibrated: true)
        #expect(with < 2, "calibrated: heading off by up to \(with)°")
        #expect(without > 10, "uncalibrated: heading off by only \(without)°")
    }
}
