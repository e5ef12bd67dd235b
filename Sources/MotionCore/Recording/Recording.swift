// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A motion recording: what `tiltmaze record` writes and `--source
/// replay:FILE` plays back, documented in docs/sensors.md ("Recordings"):
///
///     TILTMAZE RECORDING 2\n          the first line: format and version
///     device: mpu9250 on iio:device0\n
///     identity: iio mpu9250 at platform/…/1-0068\n
///     rate_hz: 200\n
///     accel_scale: 0.000598550\n     m/s² per count, or "unknown"
///     gyro_scale: 0.000133158\n      rad/s per count, "none" without a gyroscope
///     magn_scale: 0.15\n             µT per count, or "unknown" (version 2 only)
///     mount_matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1\n   already applied to the samples
///     accel_calibration: bias 0.9, -2.3, 3.1; matrix 1.03, 0, 0; 0, 0.97, 0; 0, 0, 1.02\n
///                                     applied before the mount; only when there was one
///     accel_scaled_by_gravity: yes\n  only for a device that gives no units
///                                     (evdev resolution 0): scaled anew at each connection
///     \n                              a blank line ends the header
///     samples, little-endian, 81 bytes each (57 in version 1):
///       Int64 t_ns (CLOCK_MONOTONIC), UInt8 fields (bit 0 accel, bit 1 gyro,
///       bit 2 magnetic field), Float64 ax ay az (m/s²), Float64 gx gy gz
///       (rad/s), then in version 2 Float64 mx my mz (µT), board frame
///
/// Version 2 is the form of a device with a magnetometer; one without
/// is still written as version 1, which earlier TiltMaze releases read.
/// A readable header (`head` shows it) and exact binary samples: the
/// doubles are the ones the sensor produced, so a replay is bit for bit
/// the same stream. Unknown header keys are kept and ignored, so later
/// versions can add some without breaking this reader.
public struct RecordingHeader: Sendable, Equatable {
    /// The first line of each version this reader knows, by version.
    public static let firstLines = [1: "TILTMAZE RECORDING 1", 2: "TILTMAZE RECORDING 2"]
    static let prefix = "TILTMAZE RECORDING "
    /// The first word of a recording's own: what `record` puts over
    /// `halfDoneWord` (the same length) once the recording is whole.
    public static let savedWord = "TILTMAZE RECORDING"
    /// The first word while a recording is being made: a temporary left by
    /// a `record` that was killed starts so, and no replay takes it.
    public static let halfDoneWord = "TILTMAZE HALF-DONE"

    public var device: String
    public var identity: String?
    public var rate: Double
    public var accelScale: Double?
    public var gyroScale: Double?
    public var hasGyroscope: Bool
    public var mount: MountMatrix
    /// Whether the samples carry a magnetic field (version 2).
    public var hasMagnetometer: Bool
    /// µT per count, when known.
    public var magnetometerScale: Double?
    /// The accelerometer's calibration the source applied before the mount (none: the chip's readings).
    public var accelerometer: AccelerometerCalibration = .none
    /// The accelerometer was scaled by gravity, its device giving no units
    /// (`SensorScales.accelerometerScaledByGravity`): no calibration of it holds.
    public var accelerometerScaledByGravity = false

    public init(device: String, identity: String?, rate: Double, accelScale: Double? = nil, gyroScale: Double? = nil,
                hasGyroscope: Bool, mount: MountMatrix = .identity, hasMagnetometer: Bool = false,
                magnetometerScale: Double? = nil) {
        self.device = device
        self.identity = identity
        self.rate = rate
        self.accelScale = accelScale
        self.gyroScale = gyroScale
        self.hasGyroscope = hasGyroscope
        self.mount = mount
        self.hasMagnetometer = hasMagnetometer
        self.magnetometerScale = magnetometerScale
    }

    /// 2 with a magnetometer, else 1.
    public var version: Int { hasMagnetometer ? 2 : 1 }
    /// Bytes per recorded sample in this version.
    public var sampleSize: Int { hasMagnetometer ? 81 : 57 }

    /// The header of a recording of `source` (started, so its scales are known):
    /// what `tiltmaze record` and the motion library's recorder write.
    public init(recording source: any MotionSource) {
        let scales = source.scales
        self.init(device: source.displayName, identity: source.calibrationIdentity, rate: source.rate,
                  accelScale: scales?.accel, gyroScale: scales?.gyro,
                  hasGyroscope: scales?.hasGyroscope ?? false, mount: scales?.mount ?? .identity,
                  hasMagnetometer: scales?.hasMagnetometer ?? false, magnetometerScale: scales?.magnetometer)
        accelerometer = scales?.accelerometer ?? .none
        accelerometerScaledByGravity = scales?.accelerometerScaledByGravity ?? false
    }

    /// The header's bytes, blank line included.
    public var encoded: [UInt8] {
        func clean(_ s: String) -> String { String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        var text = Self.prefix + "\(version)\n"
        text += "device: \(clean(device))\n"
        if let identity { text += "identity: \(clean(identity))\n" }
        text += "rate_hz: \(rate)\n"
        text += "accel_scale: \(accelScale.map { "\($0)" } ?? "unknown")\n"
        text += "gyro_scale: \(hasGyroscope ? gyroScale.map { "\($0)" } ?? "unknown" : "none")\n"
        if hasMagnetometer { text += "magn_scale: \(magnetometerScale.map { "\($0)" } ?? "unknown")\n" }
        text += "mount_matrix: \(mount)\n"
        if !accelerometer.isNone { text += "accel_calibration: \(accelerometer.headerText)\n" }
        if accelerometerScaledByGravity { text += "accel_scaled_by_gravity: yes\n" }
        text += "\n"
        return Array(text.utf8)
    }
}

extension AccelerometerCalibration {
    /// "bias 0.9, -2.3, 3.1; matrix 1.03, 0, 0; 0, 0.97, 0; 0, 0, 1.02": a recording header's form.
    var headerText: String {
        let b = bias, m = MountMatrix(matrix.0, matrix.1, matrix.2)
        return "bias \(b.x), \(b.y), \(b.z); matrix \(m)"
    }

    init?(headerText text: String) {
        let parts = text.split(separator: ";", maxSplits: 1)
        guard parts.count == 2, parts[0].hasPrefix("bias ") else { return nil }
        let matrixText = parts[1].trimmingCharacters(in: " ")
        guard matrixText.hasPrefix("matrix ") else { return nil }
        let numbers = parts[0].dropFirst(5).split(separator: ",").compactMap { Double($0.trimmingCharacters(in: " ")) }
        guard numbers.count == 3, numbers.allSatisfy({ $0.isFinite }),
              let m = MountMatrix(parsing: matrixText.dropFirst(7)), Matrix3(m.rows.0, m.rows.1, m.rows.2).inverse != nil else { return nil }
        self.init(bias: Vector3(numbers[0], numbers[1], numbers[2]), matrix: m.rows)
    }
}

extension MotionSample {
    /// Appends the sample's recorded form: 81 bytes with the magnetic field
    /// (version 2), else 57 with any field it had left out (version 1).
    package func appendRecorded(to bytes: inout [UInt8], withMagneticField: Bool = false) {
        func append<T: FixedWidthInteger>(_ v: T) {
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append(timestamp)
        append(withMagneticField ? fields.rawValue : fields.subtracting(.magneticField).rawValue)
        for v in [acceleration.x, acceleration.y, acceleration.z, rotationRate.x, rotationRate.y, rotationRate.z] {
            append(v.bitPattern)
        }
        guard withMagneticField else { return }
        for v in [magneticField.x, magneticField.y, magneticField.z] { append(v.bitPattern) }
    }
}

/// Where a recording or a CSV file went wrong, in the words a player can act on.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "line 3", "byte 1234".
    public var location: String
    public var problem: String
    public var description: String { "\(location): \(problem)" }

    public init(location: String, problem: String) {
        self.location = location
        self.problem = problem
    }
}

/// A whole recording read back: its header and its samples in order.
public struct Recording: Sendable {
    public var header: RecordingHeader
    public var samples: [MotionSample]

    public init(header: RecordingHeader, samples: [MotionSample]) {
        self.header = header
        self.samples = samples
    }

    /// Reads a recording (`TILTMAZE RECORDING 1` or `2`) or a CSV file
    /// (first line `t_ns,ax,ay,az,…`), whichever `bytes` is.
    public static func parse(_ bytes: [UInt8], name: String) throws(RecordingError) -> Recording {
        if bytes.starts(with: Array(RecordingHeader.halfDoneWord.utf8)) {
            throw RecordingError(location: "line 1", problem: "a recording never saved: the `tiltmaze record` writing it "
                                 + "was stopped before it could finish (killed, or the machine went down), so none of it is "
                                 + "replayed. Remove it and record again (the next record beside it removes it once its writer is gone)")
        }
        if bytes.starts(with: Array(RecordingHeader.prefix.utf8)) {
            return try parseRecording(bytes)
        } else if bytes.starts(with: Array("t_ns,".utf8)) || bytes.starts(with: [0xEF, 0xBB, 0xBF] + Array("t_ns,".utf8)) {
            return try SampleCSV.parse(bytes, name: name)
        }
        throw RecordingError(location: "line 1",
                             problem: "expected \"\(RecordingHeader.firstLines[2]!)\" (a TiltMaze recording) or a CSV header such as \"\(SampleCSV.header)\"")
    }

    static func parseRecording(_ bytes: [UInt8]) throws(RecordingError) -> Recording {
        var header = RecordingHeader(device: "", identity: nil, rate: 0, hasGyroscope: false)
        var seen: Set<String> = []
        var position = 0
        var line = 0
        while true {
            guard let end = bytes[position...].firstIndex(of: 0x0A) else {
                throw RecordingError(location: "line \(line + 1)", problem: "the header never ends: expected a blank line before the samples")
            }
            line += 1
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            if line == 1 {
                guard let version = RecordingHeader.firstLines.first(where: { $0.value == text })?.key else {
                    throw RecordingError(location: "line 1", problem: "\"\(text)\": this TiltMaze reads versions 1 and 2 (\"\(RecordingHeader.firstLines[2]!)\"); a newer TiltMaze wrote this")
                }
                header.hasMagnetometer = version == 2
                continue
            }
            if text.isEmpty { break }
            guard let colon = text.firstIndex(of: ":") else {
                throw RecordingError(location: "line \(line)", problem: "expected \"key: value\" in the header, found \"\(text)\"")
            }
            let key = String(text[..<colon])
            let value = String(text[text.index(after: colon)...].trimmingCharacters(in: " \t"))
            seen.insert(key)
            func number(_ what: String) throws(RecordingError) -> Double {
                guard let v = Double(value), v.isFinite, v > 0 else {
                    throw RecordingError(location: "line \(line)", problem: "\(key): expected \(what), found \"\(value)\"")
                }
                return v
            }
            switch key {
            case "device": header.device = value
            case "identity": header.identity = value
            case "rate_hz": header.rate = try number("a positive number of samples per second")
            case "accel_scale": header.accelScale = value == "unknown" ? nil : try number("m/s² per count or \"unknown\"")
            case "gyro_scale":
                header.hasGyroscope = value != "none"
                header.gyroScale = value == "none" || value == "unknown" ? nil : try number("rad/s per count, \"unknown\" or \"none\"")
            case "mount_matrix":
                guard let m = MountMatrix(parsing: value) else {
                    throw RecordingError(location: "line \(line)", problem: "mount_matrix: expected three rows of three numbers, \"1, 0, 0; 0, 1, 0; 0, 0, 1\"")
                }
                header.mount = m
            case "accel_calibration":
                guard let a = AccelerometerCalibration(headerText: value) else {
                    throw RecordingError(location: "line \(line)", problem: "accel_calibration: expected \"bias x, y, z; matrix a, b, c; d, e, f; g, h, i\"")
                }
                header.accelerometer = a
            case "accel_scaled_by_gravity":
                guard value == "yes" || value == "no" else {
                    throw RecordingError(location: "line \(line)", problem: "accel_scaled_by_gravity: expected \"yes\" or \"no\", found \"\(value)\"")
                }
                header.accelerometerScaledByGravity = value == "yes"
            case "magn_scale": header.magnetometerScale = value == "unknown" ? nil : try number("µT per count or \"unknown\"")
            default: break   // a later version's key
            }
        }
        for key in ["device", "rate_hz"] where !seen.contains(key) {
            throw RecordingError(location: "line \(line)", problem: "the header has no \"\(key):\" line")
        }
        let size = header.sampleSize
        let withField = header.hasMagnetometer
        var samples: [MotionSample] = []
        samples.reserveCapacity((bytes.count - position) / size)
        var last = Int64.min
        while position < bytes.count {
            guard bytes.count - position >= size else {
                throw RecordingError(location: "byte \(position)",
                                     problem: "sample \(samples.count + 1) is cut short (\(bytes.count - position) of \(size) bytes): the recording was interrupted; the \(samples.count) samples before it are whole")
            }
            let sample = bytes.withUnsafeBytes { raw -> MotionSample in
                let base = raw.baseAddress! + position
                func double(_ at: Int) -> Double { Double(bitPattern: UInt64(littleEndian: (base + at).loadUnaligned(as: UInt64.self))) }
                return MotionSample(timestamp: Int64(littleEndian: base.loadUnaligned(as: Int64.self)),
                                    acceleration: Vector3(double(9), double(17), double(25)),
                                    rotationRate: Vector3(double(33), double(41), double(49)),
                                    magneticField: withField ? Vector3(double(57), double(65), double(73)) : .zero,
                                    fields: MotionSample.Fields(rawValue: base.load(fromByteOffset: 8, as: UInt8.self)))
            }
            if !withField, sample.hasMagneticField {
                throw RecordingError(location: "byte \(position)", problem: "sample \(samples.count + 1): a magnetic field in a version 1 recording, which has none")
            }
            if let problem = SampleCSV.problem(with: sample, after: last) {
                throw RecordingError(location: "byte \(position)", problem: "sample \(samples.count + 1): \(problem)")
            }
            last = sample.timestamp
            samples.append(sample)
            position += size
        }
        return Recording(header: header, samples: samples)
    }
}
