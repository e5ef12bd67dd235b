import Benchmark
import IIO
import MockIMU
import Motion
import Realtime
#if canImport(Glibc)
import Glibc
#endif

// Time from a scan arriving at the device node to its sample being in the
// ring (issue 3, "Measure"), on a umockdev MPU-6050:
//
//   IIOMotionSource(imu:rate: 200) started on the mock (data-ready trigger,
//   accel + anglvel + timestamp enabled, temp off: 24-byte scans of six
//   be:s16, 4 bytes of padding, le:s64), with a non-identity mount matrix.
//   Each iteration: sleep to the next 5 ms deadline (200 Hz, so the sensor
//   thread is asleep in poll as it would be between real scans), take
//   t0 = MonotonicClock.now(), write one scan into the node's pty, spin on
//   `source.samples.drain` until the sample whose timestamp is that scan's
//   sequence number comes out, t1 = now. t1 − t0 is the custom metric
//   "scan → ring (ns)". The wall clock and malloc counts cover only the
//   write-to-sample span (start/stopMeasurement), for every thread: a
//   non-zero malloc count is an allocation on the per-scan path.
//
// What this measures: our path (the sensor thread's poll wake-up, libiio's
// non-blocking refill, the copy into IIOBuffer, the conversion, the push)
// plus a pty (the write into the master, the tty layer's flip to the slave,
// umockdev's preload wrapping the read). Not a kernel IIO buffer and not a
// sensor: a real driver's wake-up comes from an interrupt and a kfifo.
//
// Needs libumockdev-preload: `./run --target IIOLatency` wraps itself in
// umockdev-wrapper (see ../../run); without the preload this benchmark
// skips itself with a message and registers nothing.

let period: Int64 = 5_000_000  // 200 Hz
let node = "/dev/iio:device0"
let mount = "0, 1, 0; -1, 0, 0; 0, 0, 1"
let accelScale = 0.000598, gyroScale = 0.000133090

/// Writes to standard error (fd 2; the C `stderr` global is not concurrency-safe in Swift 6).
func warn(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// The testbed, the running source and the scan being written; set up in the
/// benchmark's setup hook, so that listing the benchmarks makes no testbed.
final class Rig: @unchecked Sendable {
    var testbed: MockTestbed?
    var source: IIOMotionSource?
    var fd: Int32 = -1
    var sequence: Int64 = 1
    var deadline: Int64 = 0
    let scan = UnsafeMutableRawBufferPointer.allocate(byteCount: 24, alignment: 8)

    func start() throws {
        let testbed = MockTestbed()
        self.testbed = testbed
        try testbed.add(description: mpu6050Description(mountMatrix: mount))
        let imus = IIOIMU.find(in: try IIOContext())
        guard imus.count == 1, imus[0].name == "mpu6050" else { throw Failure("expected one mpu6050, found \(imus)") }
        guard let fd = testbed.deviceFD(node) else { throw Failure("\(node) has no pty") }
        self.fd = fd
        let source = IIOMotionSource(imu: imus[0], rate: 200)
        try source.start()
        self.source = source
        guard source.rate == 200 else { throw Failure("rate \(source.rate), expected 200") }
        // One scan by hand, checked value by value: the layout the benchmark writes is the one the source reads.
        fill(sequence: 12_345)
        let got = try send(expecting: 12_345)
        let a = Vector3(Double(raw(1, 12_345)) * accelScale, -Double(raw(0, 12_345)) * accelScale,
                        Double(raw(2, 12_345)) * accelScale)
        let g = Vector3(Double(raw(4, 12_345)) * gyroScale, -Double(raw(3, 12_345)) * gyroScale,
                        Double(raw(5, 12_345)) * gyroScale)
        guard got.acceleration == a, got.rotationRate == g, got.fields == [.acceleration, .rotationRate] else {
            throw Failure("check scan converted to \(got), expected accel \(a) gyro \(g)")
        }
        deadline = MonotonicClock.now()
    }

    func stop() {
        source?.stop()
        source = nil
        testbed = nil  // removes the testbed and unsets UMOCKDEV_DIR
    }

    /// The value of channel `c` (accel x/y/z, anglvel x/y/z) in scan `k`: varies with both.
    func raw(_ c: Int, _ k: Int64) -> Int16 {
        Int16(truncatingIfNeeded: (k &* 7919 &+ Int64(c) &* 104_729) % 60_000 - 30_000)
    }

    /// Lays out scan `k`: six be:s16, 4 bytes of padding, le:s64 timestamp = k.
    func fill(sequence k: Int64) {
        for c in 0..<6 {
            let v = UInt16(bitPattern: raw(c, k))
            scan[2 * c] = UInt8(v >> 8)
            scan[2 * c + 1] = UInt8(v & 0xff)
        }
        for i in 12..<16 { scan[i] = 0 }
        for i in 0..<8 { scan[16 + i] = UInt8(truncatingIfNeeded: UInt64(bitPattern: k) >> UInt64(8 * i)) }
    }

    /// Writes the filled scan and spins until its sample is in the ring.
    func send(expecting k: Int64) throws -> MotionSample {
        guard let source else { throw Failure("not started") }
        guard write(fd, scan.baseAddress, 24) == 24 else { throw Failure("write to \(node): \(String(cString: strerror(errno)))") }
        return try wait(for: k, in: source, since: MonotonicClock.now())
    }

    func wait(for k: Int64, in source: IIOMotionSource, since t0: Int64) throws -> MotionSample {
        var found: MotionSample?
        while found == nil {
            source.samples.drain { if $0.timestamp == k { found = $0 } }
            if found == nil && MonotonicClock.now() - t0 > 1_000_000_000 {
                throw Failure("scan \(k) not in the ring after 1 s: \(source.failure ?? "no failure reported")")
            }
        }
        return found!
    }
}

let benchmarks: @Sendable () -> Void = {
    guard UmockdevPreload.isActive else {
        warn("""
            IIOLatency: SKIPPED, libumockdev-preload is not in LD_PRELOAD. This benchmark needs a umockdev \
            testbed; run it as `./run --target IIOLatency` (which wraps itself in umockdev-wrapper) or \
            `umockdev-wrapper ./run --target IIOLatency` from /work/main/Benchmarks.\n
            """)
        return
    }

    let rig = Rig()
    let latency = BenchmarkMetric.custom("scan → ring (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "IIO scan written to pty → sample in ring, MPU-6050 at 200 Hz",
        configuration: .init(
            metrics: [latency, .wallClock, .mallocCountTotal, .mallocBytesCount],
            timeUnits: .microseconds,
            warmupIterations: 20,
            maxDuration: .seconds(15),
            maxIterations: 2000
        )
    ) { benchmark in
        guard let source = rig.source else { benchmark.error("no source: setup failed"); return }
        let k = rig.sequence
        rig.sequence += 1
        rig.fill(sequence: k)
        rig.deadline += period
        if rig.deadline < MonotonicClock.now() { rig.deadline = MonotonicClock.now() + period }
        MonotonicClock.sleep(until: rig.deadline)

        benchmark.startMeasurement()
        let t0 = MonotonicClock.now()
        let written = write(rig.fd, rig.scan.baseAddress, 24)
        let t1: Int64
        do {
            guard written == 24 else { throw Failure("write to \(node) returned \(written)") }
            _ = try rig.wait(for: k, in: source, since: t0)
            t1 = MonotonicClock.now()
        } catch {
            benchmark.stopMeasurement()
            benchmark.error("\(error)")
            return
        }
        benchmark.stopMeasurement()
        benchmark.measurement(latency, Int(t1 - t0))
    } setup: {
        try rig.start()
    } teardown: {
        let dropped = rig.source?.samples.droppedCount ?? 0
        let failure = rig.source?.failure
        rig.stop()
        if dropped != 0 { warn("IIOLatency: the ring dropped \(dropped) samples\n") }
        if let failure { warn("IIOLatency: source failed: \(failure)\n") }
    }
}
