// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Samples as CSV, the form other tools can be made to export:
///
///     t_ns,ax,ay,az,gx,gy,gz,mx,my,mz
///     1000000000,0.01,-0.02,9.81,0.001,0,-0.002,21.5,-3.2,-40.1
///
/// `t_ns` is monotonic nanoseconds (any origin), `a*` m/s² (the specific
/// force: +9.81 on z for a board lying flat), `g*` rad/s, `m*` µT, all in
/// the board frame (x right, y to the top edge, z out of the screen).
/// The header names the columns; these four forms are read:
///
///     t_ns,ax,ay,az,gx,gy,gz,mx,my,mz     all three sensors (written)
///     t_ns,ax,ay,az,gx,gy,gz              no magnetometer (the first form)
///     t_ns,ax,ay,az                       an accelerometer alone
///     t_ns,ax,ay,az,mx,my,mz              accelerometer and magnetometer
///
/// A row may leave a sensor's three fields empty: the gyroscope half of a
/// split chip has no acceleration, and a magnetometer that reads less often
/// than the rest leaves its fields empty between readings.
public enum SampleCSV {
    /// The header `row` writes under.
    public static let header = "t_ns,ax,ay,az,gx,gy,gz,mx,my,mz"
    /// The headers `parse` reads, as column lists.
    static let layouts: [[String]] = [
        ["t_ns", "ax", "ay", "az", "gx", "gy", "gz", "mx", "my", "mz"],
        ["t_ns", "ax", "ay", "az", "gx", "gy", "gz"],
        ["t_ns", "ax", "ay", "az"],
        ["t_ns", "ax", "ay", "az", "mx", "my", "mz"],
    ]

    /// One row under `header`, as `parse` reads it back exactly (Swift
    /// prints the shortest decimal that reads back as the same Double).
    public static func row(_ sample: MotionSample) -> String {
        func three(_ v: Vector3, _ present: Bool) -> String { present ? "\(v.x),\(v.y),\(v.z)" : ",," }
        return "\(sample.timestamp),\(three(sample.acceleration, sample.hasAcceleration)),"
            + "\(three(sample.rotationRate, sample.hasRotationRate)),\(three(sample.magneticField, sample.hasMagneticField))"
    }

    public static func parse(_ bytes: [UInt8], name: String) throws(RecordingError) -> Recording {
        var samples: [MotionSample] = []
        var lineNumber = 0
        var last = Int64.min
        var columns: [String] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0   // a byte-order mark, as spreadsheets write
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            if line.last == 0x0D { line = line.dropLast() }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: " \t")) }
            if lineNumber == 1 {
                guard layouts.contains(fields) else {
                    throw RecordingError(location: "line 1", problem: "the CSV header \"\(fields.joined(separator: ","))\" is not one this reads: \(layouts.map { $0.joined(separator: ",") }.joined(separator: ", "))")
                }
                columns = fields
                continue
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard fields.count == columns.count else {
                throw RecordingError(location: "line \(lineNumber)",
                                     problem: "expected \(columns.count) comma-separated fields (\(columns.joined(separator: ","))), found \(fields.count)")
            }
            guard let t = Int64(fields[0]) else {
                throw RecordingError(location: "line \(lineNumber)",
                                     problem: "field 1 (t_ns): expected whole nanoseconds, found \"\(fields[0])\"")
            }
            /// The three fields whose first column is `firstName`, nil when the header has none or the row leaves them empty.
            func vector(_ firstName: String, _ unit: String) throws(RecordingError) -> Vector3? {
                guard let first = columns.firstIndex(of: firstName) else { return nil }
                let texts = fields[first..<first + 3]
                if texts.allSatisfy(\.isEmpty) { return nil }
                var values: [Double] = []
                for (offset, text) in texts.enumerated() {
                    guard let v = Double(text), v.isFinite else {
                        let index = first + offset
                        throw RecordingError(location: "line \(lineNumber)",
                                             problem: "field \(index + 1) (\(columns[index])): expected a number in \(unit), found \"\(text)\"")
                    }
                    values.append(v)
                }
                return Vector3(values[0], values[1], values[2])
            }
            let accel = try vector("ax", "m/s²"), gyro = try vector("gx", "rad/s"), field = try vector("mx", "µT")
            var sampleFields: MotionSample.Fields = []
            if accel != nil { sampleFields.insert(.acceleration) }
            if gyro != nil { sampleFields.insert(.rotationRate) }
            if field != nil { sampleFields.insert(.magneticField) }
            let sample = MotionSample(timestamp: t, acceleration: accel ?? .zero, rotationRate: gyro ?? .zero,
                                      magneticField: field ?? .zero, fields: sampleFields)
            if let problem = problem(with: sample, after: last) {
                throw RecordingError(location: "line \(lineNumber)", problem: problem)
            }
            last = t
            samples.append(sample)
        }
        guard !samples.isEmpty else {
            throw RecordingError(location: "line \(max(lineNumber, 1))", problem: "no samples after the header")
        }
        let hasGyroscope = samples.contains(where: \.hasRotationRate)
        let hasMagnetometer = columns.contains("mx")
        return Recording(header: RecordingHeader(device: name, identity: nil, rate: estimatedRate(samples), hasGyroscope: hasGyroscope,
                                                 hasMagnetometer: hasMagnetometer),
                         samples: samples)
    }

    /// Why `sample` cannot follow a sample stamped `last`, or nil.
    static func problem(with sample: MotionSample, after last: Int64) -> String? {
        if sample.fields.isEmpty || !MotionSample.Fields.all.isSuperset(of: sample.fields) {
            return sample.fields.isEmpty ? "no acceleration, rotation rate or magnetic field" : "unknown fields \(sample.fields.rawValue)"
        }
        if sample.timestamp < last { return "time runs backwards (t_ns \(sample.timestamp) after \(last))" }
        if sample.hasAcceleration, !SamplePlausibility.within(sample.acceleration, SamplePlausibility.maxAcceleration) {
            return "an acceleration no sensor gives (\(sample.acceleration) m/s²; at most 400 g)"
        }
        if sample.hasRotationRate, !SamplePlausibility.within(sample.rotationRate, SamplePlausibility.maxRotationRate) {
            return "a rotation rate no sensor gives (\(sample.rotationRate) rad/s; at most 200)"
        }
        if sample.hasMagneticField, !SamplePlausibility.within(sample.magneticField, SamplePlausibility.maxMagneticField) {
            return "a magnetic field no sensor gives (\(sample.magneticField) µT; at most 10 000)"
        }
        return nil
    }

    /// Samples per second from the median interval (robust to gaps and split-chip pairs).
    static func estimatedRate(_ samples: [MotionSample]) -> Double {
        let steps = zip(samples, samples.dropFirst()).map { $1.timestamp - $0.timestamp }.filter { $0 > 0 }.sorted()
        guard !steps.isEmpty else { return 0 }
        return 1e9 / Double(steps[steps.count / 2])
    }
}
