// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Benchmark
import BenchmarkRun
import IIO
import MockIMU
import MotionCore
import MotionDevices
import Realtime
import Synchronization
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
//   "scan → ring (ns)" (shown in K, i.e. µs). The wall clock and malloc
//   counts cover only the write-to-sample span (start/stopMeasurement), for
//   every thread.
//
// What this measures: our path (the sensor thread's poll wake-up, libiio's
// non-blocking refill, the copy into IIOBuffer, the conversion, the
// plausibility check, the push) plus a pty (the write into the master, the
// tty layer's hand-over to the slave, umockdev's preload wrapping each
// read). Not a kernel IIO buffer and not a sensor: a real driver's wake-up
// comes from an interrupt and a kfifo.
//
// So the second benchmark interleaves, scan by scan, the same measurement
// with a bare reader: a thread of ours asleep in poll(2) on a second mock
// node (/dev/benchpty, also a pty under the same preload) that reads the
// bytes and publishes the timestamp through an atomic. Its figure is the pty
// and wake-up alone; the source's minus it is roughly what our code adds.
// Per iteration it records both times and their ratio; the order of the two
// alternates from one iteration to the next.
//
// The third counts heap allocations over whole capture cycles (100 scans at
// 200 Hz per sample, sleeps included), so an allocation anywhere in the
// sensor thread's loop shows, not only in the write-to-sample span.
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
    // @unchecked Sendable: the benchmark's setup, body and teardown run one
    // after another, never at once; these fields are theirs.
    var testbed: MockTestbed?
    var source: IIOMotionSource?
    var fd: Int32 = -1
    var bare: BareReader?
    var iiod: LocalIIOD?
    var bareFD: Int32 = -1
    var sequence: Int64 = 1
    var deadline: Int64 = 0
    let scan = UnsafeMutableRawBufferPointer.allocate(byteCount: 24, alignment: 8)

    /// - Parameter overNetwork: read the MPU-6050 through a local iiod (`ip:127.0.0.1:PORT`), as `--iio-uri` does.
    func start(overNetwork: Bool = false) throws {
        let testbed = MockTestbed()
        self.testbed = testbed
        try testbed.add(description: mpu6050Description(mountMatrix: mount))
        try testbed.add(description: barePTYDescription)
        if overNetwork { iiod = try LocalIIOD() }
        let imus = IIOIMU.find(in: try IIOContext(uri: iiod?.uri))
        guard imus.count == 1, imus[0].name == "mpu6050" else { throw Failure("expected one mpu6050, found \(imus)") }
        guard let fd = testbed.deviceFD(node) else { throw Failure("\(node) has no pty") }
        self.fd = fd
        // Measured here is capture; between iterations the device may rest
        // longer than the second after which a silent trigger is polled instead.
        let source = IIOMotionSource(imu: imus[0], rate: 200, silenceBound: .seconds(3600))
        try source.start()
        self.source = source
        guard source.rate == 200 else { throw Failure("rate \(source.rate), expected 200") }
        // One scan by hand, checked value by value: the layout the benchmark writes is the one the source reads.
        let k = sequence
        sequence += 1
        fill(sequence: k)
        let got = try send(expecting: k, fillingBuffer: overNetwork)
        let a = Vector3(Double(raw(1, k)) * accelScale, -Double(raw(0, k)) * accelScale, Double(raw(2, k)) * accelScale)
        let g = Vector3(Double(raw(4, k)) * gyroScale, -Double(raw(3, k)) * gyroScale, Double(raw(5, k)) * gyroScale)
        guard got.acceleration == a, got.rotationRate == g, got.fields == [.acceleration, .rotationRate] else {
            throw Failure("check scan converted to \(got), expected accel \(a) gyro \(g)")
        }
        deadline = MonotonicClock.now()
    }

    /// Starts the bare reader on /dev/benchpty (second benchmark only).
    func startBare() throws {
        guard let testbed, let fd = testbed.deviceFD(bareNode) else { throw Failure("\(bareNode) has no pty") }
        bareFD = fd
        bare = try BareReader(path: bareNode)
    }

    func stop() {
        bare?.stop()
        bare = nil
        source?.stop()
        source = nil
        iiod = nil
        testbed = nil  // removes the testbed and unsets UMOCKDEV_DIR
    }

    /// The value of channel `c` (accel x/y/z, anglvel x/y/z) in scan `k`: varies with both.
    func raw(_ c: Int, _ k: Int64) -> Int16 {
        Int16(truncatingIfNeeded: (k &* 7919 &+ Int64(c) &* 104_729) % 60_000 - 30_000)
    }

    /// Lays out scan `k`: six be:s16, 4 bytes of padding, le:s64 timestamp = k.
    /// Timestamps must only grow: the source refuses a scan stamped before
    /// the previous one (`SamplePlausibility`), so `sequence` never goes back.
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
    /// Over the network a refill waits for a whole buffer: `fillingBuffer`
    /// writes the scans after it that complete one.
    func send(expecting k: Int64, fillingBuffer: Bool = false) throws -> MotionSample {
        guard let source else { throw Failure("not started") }
        guard write(fd, scan.baseAddress, 24) == 24 else { throw Failure("write to \(node): \(String(cString: strerror(errno)))") }
        if fillingBuffer {
            for _ in 1 ..< IIOMotionSource.bufferSamples(rate: 200, local: false) {
                fill(sequence: sequence)
                sequence += 1
                guard write(fd, scan.baseAddress, 24) == 24 else { throw Failure("write to \(node): \(String(cString: strerror(errno)))") }
            }
        }
        return try wait(for: k, in: source, since: MonotonicClock.now())
    }

    func wait(for k: Int64, in source: IIOMotionSource, since t0: Int64) throws -> MotionSample {
        var found: MotionSample?
        var other: MotionSample?
        while found == nil {
            source.samples.drain { if $0.timestamp == k { found = $0 } else { other = $0 } }
            if found == nil && MonotonicClock.now() - t0 > 1_000_000_000 {
                throw Failure("scan \(k) not in the ring after 1 s (other sample seen: \(other.map { "\($0)" } ?? "none"); rejected as implausible so far: \(source.rejectedCount)): \(source.failure ?? "no failure reported")")
            }
        }
        return found!
    }
}

let bareNode = "/dev/benchpty"
/// A character device that is not IIO (libiio ignores it), so umockdev makes a second pty.
let barePTYDescription = """
    P: /devices/virtual/misc/benchpty
    N: benchpty
    E: DEVNAME=/dev/benchpty
    E: SUBSYSTEM=misc
    E: MAJOR=10
    E: MINOR=242
    A: dev=10:242\\n


    """

/// The floor under the source's figure: a thread asleep in poll(2) on a pty
/// node, reading whole 24-byte scans and publishing the last one's timestamp.
final class BareReader: @unchecked Sendable {
    // @unchecked Sendable: `thread` is set by init and cleared by stop, on
    // the owner's thread; the rest is atomic or let.
    let fd: Int32
    let lastTimestamp = Atomic<Int64>(.min)
    let oddReads = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private var thread: OSThread?

    init(path: String) throws {
        fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("open \(path): \(String(cString: strerror(errno)))") }
        thread = try OSThread(name: "bench-bare-pty") { [self] in run() }
    }

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 24, alignment: 8)
        defer { buffer.deallocate() }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while running.load(ordering: .relaxed) {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n > 0 {
                if n % 24 != 0 { oddReads.wrappingAdd(1, ordering: .relaxed); continue }
                lastTimestamp.store(buffer.loadUnaligned(fromByteOffset: n - 8, as: Int64.self), ordering: .releasing)
                continue
            }
            p.revents = 0
            _ = poll(&p, 1, 100)
        }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
        thread = nil
        close(fd)
    }
}

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    guard UmockdevPreload.isActive else {
        warn("""
            IIOLatency: SKIPPED, libumockdev-preload is not in LD_PRELOAD. This benchmark needs a umockdev \
            testbed; run it as `./run --target IIOLatency` (which wraps itself in umockdev-wrapper) or \
            `umockdev-wrapper ./run --target IIOLatency` from Benchmarks/.\n
            """)
        // A smoke run is there to run every benchmark: skipping one is a failure there.
        if BenchmarkRun.isSmokeRun { BenchmarkRun.targetFailed("IIOLatency", "skipped: libumockdev-preload is not in LD_PRELOAD") }
        return
    }

    let rig = Rig()
    func teardown() {
        let dropped = rig.source?.samples.droppedCount ?? 0
        let rejected = rig.source?.rejectedCount ?? 0
        let failure = rig.source?.failure
        let odd = rig.bare?.oddReads.load(ordering: .relaxed) ?? 0
        rig.stop()
        if dropped != 0 { warn("IIOLatency: the ring dropped \(dropped) samples\n") }
        if rejected != 0 { warn("IIOLatency: the source rejected \(rejected) samples as implausible\n") }
        if odd != 0 { warn("IIOLatency: the bare reader got \(odd) reads that were not whole scans\n") }
        if let failure { warn("IIOLatency: source failed: \(failure)\n") }
    }
    /// Sleeps to the next 5 ms deadline (or 5 ms from now if that has passed).
    func pace() {
        rig.deadline += period
        if rig.deadline < MonotonicClock.now() { rig.deadline = MonotonicClock.now() + period }
        MonotonicClock.sleep(until: rig.deadline)
    }
    /// One scan through the source: write-to-sample nanoseconds.
    func throughSource(_ source: IIOMotionSource) throws -> Int64 {
        let k = rig.sequence
        rig.sequence += 1
        rig.fill(sequence: k)
        pace()
        let t0 = MonotonicClock.now()
        let written = write(rig.fd, rig.scan.baseAddress, 24)
        guard written == 24 else { throw Failure("write to \(node) returned \(written)") }
        _ = try rig.wait(for: k, in: source, since: t0)
        return MonotonicClock.now() - t0
    }
    /// One scan through the bare reader: write-to-read nanoseconds.
    func throughBare(_ bare: BareReader) throws -> Int64 {
        let k = rig.sequence
        rig.sequence += 1
        rig.fill(sequence: k)
        pace()
        let t0 = MonotonicClock.now()
        let written = write(rig.bareFD, rig.scan.baseAddress, 24)
        guard written == 24 else { throw Failure("write to \(bareNode) returned \(written)") }
        while bare.lastTimestamp.load(ordering: .acquiring) != k {
            if MonotonicClock.now() - t0 > 1_000_000_000 { throw Failure("scan \(k) not read from \(bareNode) after 1 s") }
        }
        return MonotonicClock.now() - t0
    }

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
        guard let source = rig.source else { benchmark.fail("no source: setup failed"); return }
        let k = rig.sequence
        rig.sequence += 1
        rig.fill(sequence: k)
        pace()

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
            benchmark.fail("\(error)")
            return
        }
        benchmark.stopMeasurement()
        benchmark.measurement(latency, Int(t1 - t0))
    } setup: {
        try rig.start()
    } teardown: {
        teardown()
    }

    let sourceMetric = BenchmarkMetric.custom("IIOMotionSource: scan → ring (ns)", polarity: .prefersSmaller,
                                              useScalingFactor: false)
    let bareMetric = BenchmarkMetric.custom("bare pty reader: write → read (ns)", polarity: .prefersSmaller,
                                            useScalingFactor: false)
    // A ratio, not a difference: the framework's histograms drop negative values,
    // and in about a quarter of the iterations the bare reader is the slower one.
    let ratioMetric = BenchmarkMetric.custom("source ÷ bare, same iteration (%)", polarity: .prefersSmaller,
                                             useScalingFactor: false)
    var round = 0
    Benchmark(
        "Interleaved: IIOMotionSource vs bare pty reader, 200 Hz",
        configuration: .init(
            metrics: [sourceMetric, bareMetric, ratioMetric],
            warmupIterations: 10,
            maxDuration: .seconds(15),
            maxIterations: 1000
        )
    ) { benchmark in
        guard let source = rig.source, let bare = rig.bare else { benchmark.fail("setup failed"); return }
        do {
            let s: Int64, b: Int64
            if round & 1 == 0 {
                s = try throughSource(source); b = try throughBare(bare)
            } else {
                b = try throughBare(bare); s = try throughSource(source)
            }
            round += 1
            benchmark.measurement(sourceMetric, Int(s))
            benchmark.measurement(bareMetric, Int(b))
            benchmark.measurement(ratioMetric, Int(s * 100 / max(b, 1)))
        } catch {
            benchmark.fail("\(error)")
        }
    } setup: {
        try rig.start()
        try rig.startBare()
    } teardown: {
        teardown()
    }

    // A data-ready trigger that never fires (INT not wired, the overlay
    // declaring it all the same): how long after start the first sample
    // comes, polled instead, with the default silence bound (a second at
    // 200 Hz); and a trigger that stops (a loose wire): from the last scan
    // to the first polled sample. What the player waits before the ball moves.
    let silentStart = BenchmarkMetric.custom("silent trigger: start → first polled sample (ns)", polarity: .prefersSmaller,
                                             useScalingFactor: false)
    let stoppedTrigger = BenchmarkMetric.custom("stopped trigger: last scan → first polled sample (ns)", polarity: .prefersSmaller,
                                                useScalingFactor: false)
    Benchmark(
        "Silent data-ready trigger → polling, MPU-6050 at 200 Hz",
        configuration: .init(metrics: [silentStart, stoppedTrigger], warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 8)
    ) { benchmark in
        do {
            let testbed = MockTestbed()
            try testbed.add(description: mpu6050Description(mountMatrix: mount))
            let imus = IIOIMU.find(in: try IIOContext())
            guard let imu = imus.first, let fd = testbed.deviceFD(node) else { throw Failure("no mpu6050 with a node") }
            func firstPolled(_ source: IIOMotionSource, after limit: Int64) throws -> Int64 {
                let t0 = MonotonicClock.now()
                var at: Int64?
                while at == nil {
                    source.samples.drain { if $0.timestamp > limit, at == nil { at = MonotonicClock.now() } }
                    if let failure = source.failure { throw Failure("source failed: \(failure)") }
                    if MonotonicClock.now() - t0 > 30_000_000_000 { throw Failure("no polled sample in 30 s") }
                    MonotonicClock.sleep(until: MonotonicClock.now() + 100_000)
                }
                return at!
            }
            let silent = IIOMotionSource(imu: imu, rate: 200)
            try silent.start()
            let started = MonotonicClock.now()
            let first = try firstPolled(silent, after: 0)
            guard silent.notice != nil else { throw Failure("polled without saying so") }
            silent.stop()
            benchmark.measurement(silentStart, Int(first - started))

            let stopping = IIOMotionSource(imu: imu, rate: 200)
            try stopping.start()
            rig.fill(sequence: 1)
            guard write(fd, rig.scan.baseAddress, 24) == 24 else { throw Failure("write to \(node)") }
            let lastScan = MonotonicClock.now()
            let polled = try firstPolled(stopping, after: 1)
            stopping.stop()
            benchmark.measurement(stoppedTrigger, Int(polled - lastScan))
        } catch {
            benchmark.fail("\(error)")
        }
    }

    let scansPerSample = 100
    Benchmark(
        "IIOMotionSource: allocations over 100 scans at 200 Hz (whole cycles)",
        configuration: .init(
            metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock],
            warmupIterations: 1,
            maxDuration: .seconds(10),
            maxIterations: 10,
            thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
        )
    ) { benchmark in
        guard let source = rig.source else { benchmark.fail("no source: setup failed"); return }
        for _ in 0..<scansPerSample {
            do { _ = try throughSource(source) } catch { benchmark.fail("\(error)"); return }
        }
    } setup: {
        try rig.start()
    } teardown: {
        teardown()
    }

    // Over the network (`--iio-uri`): libiio's network backend can only
    // refill blocking, which waits until the buffer is full, so the source
    // sizes it from the rate (20 ms of scans: 4 at 200 Hz). Each iteration
    // writes one buffer's scans 5 ms apart, as the sensor would, and waits
    // for them all: the first scan has waited for the other three (15 ms)
    // plus the trip through iiod, the last only for the trip.
    let oldest = BenchmarkMetric.custom("first scan of a buffer → ring (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    let newest = BenchmarkMetric.custom("last scan of a buffer → ring (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "Through iiod on localhost (--iio-uri): scan written → sample in ring, MPU-6050 at 200 Hz",
        configuration: .init(
            metrics: [oldest, newest],
            warmupIterations: 5,
            maxDuration: .seconds(15),
            maxIterations: 300
        )
    ) { benchmark in
        guard let source = rig.source else { benchmark.fail("no source: setup failed"); return }
        let count = IIOMotionSource.bufferSamples(rate: 200, local: false)
        var written: [Int64] = []
        let first = rig.sequence
        for _ in 0..<count {
            let k = rig.sequence
            rig.sequence += 1
            rig.fill(sequence: k)
            pace()
            written.append(MonotonicClock.now())
            guard write(rig.fd, rig.scan.baseAddress, 24) == 24 else { benchmark.fail("write to \(node) failed"); return }
        }
        do {
            _ = try rig.wait(for: first + Int64(count - 1), in: source, since: written[0])
        } catch {
            benchmark.fail("\(error)")
            return
        }
        let arrived = MonotonicClock.now()
        benchmark.measurement(oldest, Int(arrived - written[0]))
        benchmark.measurement(newest, Int(arrived - written[count - 1]))
    } setup: {
        try rig.start(overNetwork: true)
    } teardown: {
        teardown()
    }
}
