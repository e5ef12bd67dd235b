// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import IIO
import MotionCore
import MotionDevices

// Demultiplex-and-convert cost per scan for a 7-channel IIO scan (issue 3,
// "Measure"): an MPU-6050 scan as inv_mpu6050 queues it, 24 bytes:
//   accel x/y/z, temp, anglvel x/y/z   be:s16/16>>0   bytes 0–13
//   padding                                           bytes 14–15
//   timestamp                          le:s64/64>>0   bytes 16–23
//
// - "IIOScanConverter.sample": what the sensor thread does per scan
//   (IIOMotionSource.run): 6 raw values + the timestamp through
//   IIOScanLayout.rawValue, offset and scale, a non-identity mount matrix
//   applied to both vectors. Temp is in the layout but not converted, as in
//   the converter. The result is stored into a 256-slot array of samples
//   (an 88-byte store, as a ring push would), not folded into a sum: a chain
//   of dependent floating-point adds would cost more than the work measured.
// - "+ SamplePlausibility.accept": the same plus the range and time checks
//   IIOMotionSource.drain now applies before pushing.
// - "IIOScanLayout.rawValue": the 7 channel values alone (no timestamp),
//   each stored to an Int64 slot.
// Both walk 256 distinct scans (6 KB, in cache) round-robin so nothing is
// hoisted out of the loop. Times are per scan (scalingFactor .kilo: a sample
// is 1000 scans).
//
// The framework divides malloc counts by the scaling factor too, so one
// allocation every few hundred scans would read 0 above; the "×10000"
// benchmarks count allocations unscaled, per 10 000 scans.

let scanCount = 256  // power of two
let accelScale = 0.000598
let gyroScale = 0.000133090

/// 256 MPU-6050 scans with varied values, their expected raw values, and the
/// layout and converter for them. Leaked on purpose: lives for the process.
struct Scans: @unchecked Sendable {
    // @unchecked Sendable: the bytes are written once, before any benchmark
    // reads them, and never again.
    let bytes: UnsafeMutableRawBufferPointer
    /// Per scan: the 7 channel values in scan order, then the timestamp.
    let expected: [[Int64]]
    let layout: IIOScanLayout
    let converter: IIOScanConverter

    init() throws {
        let be16 = try IIOScanFormat(parsing: "be:s16/16>>0")
        let le64 = try IIOScanFormat(parsing: "le:s64/64>>0")
        let ids = ["accel_x", "accel_y", "accel_z", "temp", "anglvel_x", "anglvel_y", "anglvel_z"]
        var elements = ids.enumerated().map { (channelID: $0.element, scanIndex: $0.offset, format: be16) }
        elements.append((channelID: "timestamp", scanIndex: 7, format: le64))
        let layout = try IIOScanLayout(elements: elements)
        guard layout.scanSize == 24 else { throw BenchError("scan size \(layout.scanSize), expected 24") }
        func index(_ id: String) throws -> Int {
            guard let i = layout.elementIndex(of: id) else { throw BenchError("no element \(id)") }
            return i
        }
        let accel = IIOScanConverter.Axes(elements: (try index("accel_x"), try index("accel_y"), try index("accel_z")),
                                          scale: Vector3(accelScale, accelScale, accelScale), offset: .zero)
        let gyro = IIOScanConverter.Axes(elements: (try index("anglvel_x"), try index("anglvel_y"), try index("anglvel_z")),
                                         scale: Vector3(gyroScale, gyroScale, gyroScale), offset: .zero)
        // The 90° turn of Tests/MotionIIOTests' mount-matrix test: board x = chip y, board y = −chip x.
        let mount = MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1))
        let converter = IIOScanConverter(layout: layout, accel: accel, gyro: gyro, timestamp: try index("timestamp"),
                                         mount: mount)

        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: scanCount * 24, alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        var expected: [[Int64]] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for s in 0..<scanCount {
            var values: [Int64] = []
            for c in 0..<7 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let v = Int16(truncatingIfNeeded: state >> 33)
                let u = UInt16(bitPattern: v)
                bytes[s * 24 + 2 * c] = UInt8(u >> 8)
                bytes[s * 24 + 2 * c + 1] = UInt8(u & 0xff)
                values.append(Int64(v))
            }
            let t = Int64(5_000_000_000) + Int64(s) * 5_000_000
            for k in 0..<8 { bytes[s * 24 + 16 + k] = UInt8(truncatingIfNeeded: UInt64(t) >> UInt64(8 * k)) }
            values.append(t)
            expected.append(values)
        }
        self.expected = expected
        self.bytes = bytes
        self.layout = layout
        self.converter = converter
    }

    func scan(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[(i * 24)..<(i * 24 + 24)])
    }

    /// Checks every scan decodes to what was written, before anything is timed.
    func verify() throws {
        for i in 0..<scanCount {
            let e = expected[i]
            for k in 0..<8 where layout.rawValue(of: k, in: scan(i)) != e[k] {
                throw BenchError("scan \(i) element \(k): \(layout.rawValue(of: k, in: scan(i))), expected \(e[k])")
            }
            let s = converter.sample(from: scan(i), fallbackTime: -1)
            let a = Vector3(Double(e[1]) * accelScale, -Double(e[0]) * accelScale, Double(e[2]) * accelScale)
            let g = Vector3(Double(e[5]) * gyroScale, -Double(e[4]) * gyroScale, Double(e[6]) * gyroScale)
            guard s.timestamp == e[7], s.acceleration == a, s.rotationRate == g,
                  s.fields == [.acceleration, .rotationRate] else {
                throw BenchError("scan \(i) converted to \(s), expected accel \(a) gyro \(g) t \(e[7])")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    let scans: Scans
    do {
        scans = try Scans()
        try scans.verify()
    } catch {
        fatalError("IIOScanDecode fixtures: \(error)")
    }
    let samplesOut = UnsafeMutablePointer<MotionSample>.allocate(capacity: scanCount)
    samplesOut.initialize(repeating: MotionSample(timestamp: 0, fields: []), count: scanCount)
    let rawOut = UnsafeMutablePointer<Int64>.allocate(capacity: scanCount * 8)
    rawOut.initialize(repeating: 0, count: scanCount * 8)
    let converter = scans.converter
    let layout = scans.layout

    let perScan = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )

    Benchmark("IIOScanConverter.sample, MPU-6050 24 B scan, mount matrix (per scan)",
              configuration: perScan) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            samplesOut[i] = converter.sample(from: scans.scan(i), fallbackTime: 0)
            i = (i + 1) & (scanCount - 1)
        }
        blackHole(samplesOut)
    }

    // What IIOMotionSource does per scan since SamplePlausibility: convert, then
    // refuse impossible values and time going backwards. The 256 scans' stamps
    // rise, so the checker restarts at each lap (once per 256 scans).
    var rejected = 0
    Benchmark("IIOScanConverter.sample + SamplePlausibility.accept (per scan)",
              configuration: perScan) { benchmark in
        var i = 0
        var plausibility = SamplePlausibility()
        for _ in benchmark.scaledIterations {
            if i == 0 { plausibility = SamplePlausibility() }
            let sample = converter.sample(from: scans.scan(i), fallbackTime: 0)
            if plausibility.accept(sample) {
                samplesOut[i] = sample
            } else {
                rejected &+= 1
            }
            i = (i + 1) & (scanCount - 1)
        }
        blackHole(samplesOut)
        if rejected != 0 { benchmark.fail("\(rejected) samples rejected: the fixture should be plausible") }
    }

    Benchmark("IIOScanLayout.rawValue ×7 channels, MPU-6050 24 B scan (per scan)",
              configuration: perScan) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            let scan = scans.scan(i)
            let out = rawOut + i * 8
            for k in 0..<7 { out[k] = layout.rawValue(of: k, in: scan) }
            i = (i + 1) & (scanCount - 1)
        }
        blackHole(rawOut)
    }

    // Allocations, unscaled: the target is 0 per 10 000 scans.
    let calls = 10_000
    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock],
        warmupIterations: 3,
        maxDuration: .seconds(1),
        maxIterations: 50,
        thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
    )
    Benchmark("IIOScanConverter.sample ×10000 (allocations)", configuration: allocations) { benchmark in
        for n in 0..<calls {
            let i = n & (scanCount - 1)
            samplesOut[i] = converter.sample(from: scans.scan(i), fallbackTime: 0)
        }
        blackHole(samplesOut)
    }
    Benchmark("IIOScanLayout.rawValue ×7 ×10000 scans (allocations)", configuration: allocations) { benchmark in
        for n in 0..<calls {
            let i = n & (scanCount - 1)
            let scan = scans.scan(i)
            for k in 0..<7 { rawOut[i * 8 + k] = layout.rawValue(of: k, in: scan) }
        }
        blackHole(rawOut)
    }
}
