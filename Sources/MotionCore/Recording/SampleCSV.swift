/// Samples as CSV, the form other tools can be made to export:
///
///     t_ns,ax,ay,az,gx,gy,gz
///     1000000000,0.01,-0.02,9.81,0.001,0,-0.002
///
/// `t_ns` is monotonic nanoseconds (any origin), `a*` m/s² (the specific
/// force: +9.81 on z for a board lying flat), `g*` rad/s, all in the board
/// frame (x right, y to the top edge, z out of the screen). A row may leave
/// the three gyroscope fields empty (an accelerometer-only device), or the
/// three accelerometer fields (the gyroscope half of a split chip).
public enum SampleCSV {
    public static let header = "t_ns,ax,ay,az,gx,gy,gz"
    static let names = ["t_ns", "ax", "ay", "az", "gx", "gy", "gz"]

    /// One row, as `parse` reads it back exactly (Swift prints the shortest
    /// decimal that reads back as the same Double).
    public static func row(_ sample: MotionSample) -> String {
        func three(_ v: Vector3, _ present: Bool) -> String { present ? "\(v.x),\(v.y),\(v.z)" : ",," }
        return "\(sample.timestamp),\(three(sample.acceleration, sample.hasAcceleration)),\(three(sample.rotationRate, sample.hasRotationRate))"
    }

    public static func parse(_ bytes: [UInt8], name: String) throws(RecordingError) -> Recording {
        var samples: [MotionSample] = []
        var lineNumber = 0
        var last = Int64.min
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0   // a byte-order mark, as spreadsheets write
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            if line.last == 0x0D { line = line.dropLast() }
            if lineNumber == 1 { continue }   // the header, checked by the caller
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: " \t") }
            guard fields.count == 7 else {
                throw RecordingError(location: "line \(lineNumber)",
                                     problem: "expected 7 comma-separated fields (\(header)), found \(fields.count)")
            }
            guard let t = Int64(fields[0]) else {
                throw RecordingError(location: "line \(lineNumber)",
                                     problem: "field 1 (t_ns): expected whole nanoseconds, found \"\(fields[0])\"")
            }
            func vector(_ first: Int, _ unit: String) throws(RecordingError) -> Vector3? {
                let texts = fields[first..<first + 3]
                if texts.allSatisfy(\.isEmpty) { return nil }
                var values: [Double] = []
                for (offset, text) in texts.enumerated() {
                    guard let v = Double(text), v.isFinite else {
                        let index = first + offset
                        throw RecordingError(location: "line \(lineNumber)",
                                             problem: "field \(index + 1) (\(names[index])): expected a number in \(unit), found \"\(text)\"")
                    }
                    values.append(v)
                }
                return Vector3(values[0], values[1], values[2])
            }
            let accel = try vector(1, "m/s²"), gyro = try vector(4, "rad/s")
            var sampleFields: MotionSample.Fields = []
            if accel != nil { sampleFields.insert(.acceleration) }
            if gyro != nil { sampleFields.insert(.rotationRate) }
            let sample = MotionSample(timestamp: t, acceleration: accel ?? .zero, rotationRate: gyro ?? .zero, fields: sampleFields)
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
        return Recording(header: RecordingHeader(device: name, identity: nil, rate: estimatedRate(samples), hasGyroscope: hasGyroscope),
                         samples: samples)
    }

    /// Why `sample` cannot follow a sample stamped `last`, or nil.
    static func problem(with sample: MotionSample, after last: Int64) -> String? {
        if sample.fields.isEmpty || sample.fields.rawValue & ~0b11 != 0 {
            return sample.fields.isEmpty ? "neither acceleration nor rotation rate" : "unknown fields \(sample.fields.rawValue)"
        }
        if sample.timestamp < last { return "time runs backwards (t_ns \(sample.timestamp) after \(last))" }
        if sample.hasAcceleration, !SamplePlausibility.within(sample.acceleration, SamplePlausibility.maxAcceleration) {
            return "an acceleration no sensor gives (\(sample.acceleration) m/s²; at most 400 g)"
        }
        if sample.hasRotationRate, !SamplePlausibility.within(sample.rotationRate, SamplePlausibility.maxRotationRate) {
            return "a rotation rate no sensor gives (\(sample.rotationRate) rad/s; at most 200)"
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
