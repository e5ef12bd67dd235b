// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MotionCore

/// A window of BROAD, the benchmark of real IMU recordings with an optical
/// reference (Laidig, Caruso, Cereatti, Seel, Data 6(7), 2021; CC-BY-4.0),
/// as kept in `Tests/Fixtures/broad/` (its README gives the format and how
/// the files were cut), with the figures of VQF and Fusion on the same window.
public struct BroadWindow: Sendable {
    public let name: String
    public let rate: Double
    /// The IMU's readings, timestamps from 0 at the window's first sample.
    public private(set) var samples: [MotionSample]
    /// The true "up" in the IMU's frame per sample; nil where the markers were lost.
    public let trueUp: [Vector3?]
    /// The true attitude (IMU frame → the reference's earth frame, z up) per
    /// sample; nil where the markers were lost.
    public let trueAttitude: [Quaternion?]
    /// Whether the sample is in BROAD's movement phase.
    public let moving: [Bool]

    /// A peer filter's inclination error on this window, degrees.
    public struct Figures: Sendable, Decodable {
        public let rmsMovement: Double
        public let rmsAfter2s: Double
        public let maxAfter2s: Double
        enum CodingKeys: String, CodingKey {
            case rmsMovement = "rms_movement", rmsAfter2s = "rms_after_2s", maxAfter2s = "max_after_2s"
        }
    }

    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/broad")

    /// The window files' names, in order.
    public static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".broadwin") }.sorted()
    }

    /// The heading RMS over the movement phase that `reference.json` holds for
    /// window `name` and `filter` ("VQF online 9D", "VQF offline 9D", "Fusion 9D"), degrees.
    public static func headingReference(_ name: String, filter: String) throws -> Double {
        guard case .heading(let rms)? = try references.get()[name]?[filter] else {
            throw Failure("reference.json has no \(filter) heading for \(name)")
        }
        return rms
    }

    /// The figures `reference.json` holds for window `name` and `filter` ("VQF online", "VQF offline", "Fusion").
    public static func reference(_ name: String, filter: String) throws -> Figures {
        guard case .figures(let f)? = try references.get()[name]?[filter] else {
            throw Failure("reference.json has no \(filter) for \(name)")
        }
        return f
    }

    /// `reference.json`, read once for every test that asks.
    private static let references = Result {
        try JSONDecoder().decode([String: [String: AnyFigures]].self,
                                 from: Data(contentsOf: directory.appendingPathComponent("reference.json")))
    }

    private enum AnyFigures: Decodable {
        case figures(Figures), heading(Double), other
        private struct Heading: Decodable {
            let heading_rms_movement: Double
        }
        init(from decoder: Decoder) throws {
            if let f = try? Figures(from: decoder) {
                self = .figures(f)
            } else if let h = try? Heading(from: decoder) {
                self = .heading(h.heading_rms_movement)
            } else {
                self = .other
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    public init(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
        guard let end = (0 ..< bytes.count - 1).first(where: { bytes[$0] == 10 && bytes[$0 + 1] == 10 }) else {
            throw Failure("\(name): no blank line ends the header")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n")
        guard lines.first == "TILTMAZE BROAD WINDOW 2" else { throw Failure("\(name): not a BROAD window file, version 2") }
        var header: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { header[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        guard let rate = header["rate_hz"].flatMap(Double.init), let count = header["samples"].flatMap(Int.init),
              bytes.count == end + 2 + count * Self.recordSize else {
            throw Failure("\(name): header or size does not match the format")
        }
        func float(_ at: Int) -> Double {
            Double(Float(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                         | UInt32(bytes[at + 3]) << 24))
        }
        func short(_ at: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8) }
        var samples: [MotionSample] = [], ups: [Vector3?] = [], attitudes: [Quaternion?] = [], moving: [Bool] = []
        for i in 0 ..< count {
            let r = end + 2 + i * Self.recordSize
            let t = Int64((Double(i) * 1e9 / rate).rounded())
            samples.append(MotionSample(timestamp: t, acceleration: Vector3(float(r), float(r + 4), float(r + 8)),
                                        rotationRate: Vector3(float(r + 12), float(r + 16), float(r + 20)),
                                        magneticField: Vector3(float(r + 24), float(r + 28), float(r + 32)),
                                        fields: .all))
            let q = (0 ..< 4).map { short(r + 36 + 2 * $0) }
            if q.allSatisfy({ $0 == .min }) {
                ups.append(nil)
                attitudes.append(nil)
            } else {
                let quaternion = Quaternion(w: Double(q[0]), x: Double(q[1]), y: Double(q[2]), z: Double(q[3])).normalized
                ups.append(quaternion.conjugate.rotate(Vector3(0, 0, 1)))
                attitudes.append(quaternion)
            }
            moving.append(bytes[r + 44] == 1)
        }
        self.name = name
        self.rate = rate
        self.samples = samples
        self.trueUp = ups
        self.trueAttitude = attitudes
        self.moving = moving
    }

    /// The inclination error of the estimates `ups` (one per sample, or per
    /// sample from the first on), as BROAD measures it: RMS over the
    /// movement phase, RMS and max from 2 s on, degrees; samples without a
    /// reference are skipped.
    public func score(_ ups: [Vector3]) -> Figures {
        var movement = (sum: 0.0, n: 0), after = (sum: 0.0, n: 0), worst = 0.0
        let skip = Int((2 * rate).rounded(.up))
        for (i, up) in ups.enumerated() {
            guard let truth = trueUp[i] else { continue }
            let e = Self.degrees(up, truth)
            if moving[i] { movement.sum += e * e; movement.n += 1 }
            if i >= skip { after.sum += e * e; after.n += 1; worst = max(worst, e) }
        }
        return Figures(rmsMovement: (movement.sum / Double(max(movement.n, 1))).squareRoot(),
                       rmsAfter2s: (after.sum / Double(max(after.n, 1))).squareRoot(), maxAfter2s: worst)
    }

    /// The heading error of the attitudes `estimates` (one per sample) as
    /// Benchmarks/accuracy/filters.py's `heading` measures it: the turn about
    /// the vertical of estimate ⊗ truth⁻¹, less its circular mean over the
    /// movement phase (the reference's x is not north), RMS over the movement
    /// phase, degrees.
    public func headingRMS(_ estimates: [Quaternion]) -> Double {
        var turns: [Double] = [], sum = (sin: 0.0, cos: 0.0)
        for (i, q) in estimates.enumerated() where moving[i] {
            guard let truth = trueAttitude[i] else { continue }
            let e = q * truth.conjugate
            let turn = 2 * atan2(e.z, e.w)
            turns.append(turn)
            sum.sin += sin(turn)
            sum.cos += cos(turn)
        }
        let constant = atan2(sum.sin, sum.cos)
        let squares = turns.reduce(0.0) { total, turn in
            let e = remainder(turn - constant, 2 * .pi)
            return total + e * e
        }
        return (squares / Double(max(turns.count, 1))).squareRoot() * 180 / .pi
    }

    /// Takes the magnetometer out of every sample: the window as a six-axis IMU gives it.
    public mutating func dropMagnetometer() {
        for i in samples.indices { samples[i].fields.remove(.magneticField) }
    }

    /// Bytes in one record: 9 float32 (accelerometer, gyroscope, magnetometer), 4 int16, 1 byte.
    static let recordSize = 45

    /// The angle between two directions, degrees.
    public static func degrees(_ a: Vector3, _ b: Vector3) -> Double {
        acos(min(1, max(-1, a.dot(b) / (a.length * b.length)))) * 180 / .pi
    }
}
