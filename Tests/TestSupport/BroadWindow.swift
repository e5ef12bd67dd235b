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
    public let samples: [MotionSample]
    /// The true "up" in the IMU's frame per sample; nil where the markers were lost.
    public let trueUp: [Vector3?]
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
        case figures(Figures), other
        init(from decoder: Decoder) throws {
            self = (try? Figures(from: decoder)).map(AnyFigures.figures) ?? .other
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
        guard lines.first == "TILTMAZE BROAD WINDOW 1" else { throw Failure("\(name): not a BROAD window file") }
        var header: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { header[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        guard let rate = header["rate_hz"].flatMap(Double.init), let count = header["samples"].flatMap(Int.init),
              bytes.count == end + 2 + count * 33 else {
            throw Failure("\(name): header or size does not match the format")
        }
        func float(_ at: Int) -> Double {
            Double(Float(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                         | UInt32(bytes[at + 3]) << 24))
        }
        func short(_ at: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8) }
        var samples: [MotionSample] = [], ups: [Vector3?] = [], moving: [Bool] = []
        for i in 0 ..< count {
            let r = end + 2 + i * 33
            let t = Int64((Double(i) * 1e9 / rate).rounded())
            samples.append(MotionSample(timestamp: t, acceleration: Vector3(float(r), float(r + 4), float(r + 8)),
                                        rotationRate: Vector3(float(r + 12), float(r + 16), float(r + 20)),
                                        fields: [.acceleration, .rotationRate]))
            let q = (0 ..< 4).map { short(r + 24 + 2 * $0) }
            if q.allSatisfy({ $0 == .min }) {
                ups.append(nil)
            } else {
                let quaternion = Quaternion(w: Double(q[0]), x: Double(q[1]), y: Double(q[2]), z: Double(q[3])).normalized
                ups.append(quaternion.conjugate.rotate(Vector3(0, 0, 1)))
            }
            moving.append(bytes[r + 32] == 1)
        }
        self.name = name
        self.rate = rate
        self.samples = samples
        self.trueUp = ups
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

    /// The angle between two directions, degrees.
    public static func degrees(_ a: Vector3, _ b: Vector3) -> Double {
        acos(min(1, max(-1, a.dot(b) / (a.length * b.length)))) * 180 / .pi
    }
}
