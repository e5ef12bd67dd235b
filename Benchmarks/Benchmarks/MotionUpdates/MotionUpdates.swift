// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import LinuxMotion
import Realtime
import Synchronization
import SystemCalls

// The motion library's two ways of delivering (issue 23, "Targets"), on the
// simulated board at 1 kHz (BenchBoard: stamped at push):
//
// 1. Callback: the handler given to `startDeviceMotionUpdates` reads
//    `now − motion.timestamp` for each sample: from the sample in the ring
//    to the handler's entry (the doorbell's futex wake, the drain, the
//    fusion). An iteration is 100 samples; each is one value of the
//    latency metric. Mallocs are counted over the iteration, every thread
//    (the board's, the update thread's, this one waiting), with the manager
//    already running: the steady state.
// 1b. The same with nothing but a Doorbell between two threads (BareDoorbell):
//    the futex wake alone, to tell the manager's share from the machine's.
// 2. CPU per value, callback and async sequence, interleaved: an iteration
//    takes 200 values through one form, then 200 through the other, and
//    records the process's CPU time (every thread) per value for each. The
//    board and the fusion are the same in both, so the difference is what
//    the sequence adds (the continuation's yield, its buffer, resuming the
//    consumer on Swift's pool).

/// What the handler writes, with no allocation: the latencies of this
/// iteration's samples and how many came.
final class LatencyLog: @unchecked Sendable {
    // @unchecked Sendable: `values` slots are written by the update thread
    // before `count` is published with release, read after it is loaded with acquire.
    let values = UnsafeMutablePointer<Int64>.allocate(capacity: 4_096)
    let count = Atomic<Int>(0)

    func add(_ latency: Int64) {
        let n = count.load(ordering: .relaxed)
        if n < 4_096 { values[n] = latency }
        count.store(n + 1, ordering: .releasing)
    }

    /// Waits (sleeping, so this thread does not steal a core) until `n` values are in.
    func wait(for n: Int) -> Bool {
        let deadline = MonotonicClock.now() + 5_000_000_000
        while count.load(ordering: .acquiring) < n {
            if MonotonicClock.now() > deadline { return false }
            MonotonicClock.sleep(until: MonotonicClock.now() + 2_000_000)
        }
        return true
    }
}

final class Rig: @unchecked Sendable {
    // @unchecked Sendable: the benchmark's setup, body and teardown run one
    // after another, never at once; these fields are theirs.
    var manager: MotionManager?
    let log = LatencyLog()
    var stream: AsyncThrowingStream<DeviceMotion, any Error>.AsyncIterator?

    func startCallback() throws {
        let manager = MotionManager(source: BenchBoard(rate: 1_000), description: "bench board", calibrationStore: nil)
        let log = log
        log.count.store(0, ordering: .releasing)
        try manager.startDeviceMotionUpdates(threadName: "bench-updates") { motion in
            log.add(MonotonicClock.now() - motion.timestamp)
        }
        self.manager = manager
    }

    func startStream() throws {
        let manager = MotionManager(source: BenchBoard(rate: 1_000), description: "bench board", calibrationStore: nil)
        stream = try manager.deviceMotionUpdates(bufferLimit: 1_024, threadName: "bench-updates").makeAsyncIterator()
        self.manager = manager
    }

    func stop() {
        manager?.stop()
        manager = nil
        stream = nil
    }
}

let benchmarks: @Sendable () -> Void = {
    let latency = BenchmarkMetric.custom("sample in ring → handler entry (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    let perSample = 100
    let callbackRig = Rig()
    Benchmark(
        "MotionManager callback: sample in ring → handler, simulated board at 1 kHz",
        configuration: .init(
            metrics: [latency, .mallocCountTotal],
            timeUnits: .microseconds,
            warmupIterations: 2,
            maxDuration: .seconds(20),
            maxIterations: 50
        )
    ) { benchmark in
        let log = callbackRig.log
        log.count.store(0, ordering: .releasing)
        benchmark.startMeasurement()
        let complete = log.wait(for: perSample)
        benchmark.stopMeasurement()
        guard complete else { benchmark.fail("fewer than \(perSample) samples in 5 s"); return }
        for i in 0 ..< perSample { benchmark.measurement(latency, Int(log.values[i])) }
    } setup: {
        try callbackRig.startCallback()
    } teardown: {
        callbackRig.stop()
    }

    let bare = BareDoorbell()
    let wake = BenchmarkMetric.custom("bare doorbell: ring → sleeper awake (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "Bare doorbell at 1 kHz: the futex wake alone, the floor under the handler's latency",
        configuration: .init(
            metrics: [wake, .mallocCountTotal],
            timeUnits: .microseconds,
            warmupIterations: 2,
            maxDuration: .seconds(20),
            maxIterations: 50
        )
    ) { benchmark in
        bare.log.count.store(0, ordering: .releasing)
        benchmark.startMeasurement()
        let complete = bare.log.wait(for: perSample)
        benchmark.stopMeasurement()
        guard complete else { benchmark.fail("fewer than \(perSample) wake-ups in 5 s"); return }
        for i in 0 ..< perSample { benchmark.measurement(wake, Int(bare.log.values[i])) }
    } setup: {
        try bare.start()
    } teardown: {
        bare.stop()
    }

    let values = 200
    let callbackCPU = BenchmarkMetric.custom("callback: process CPU per value (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    let streamCPU = BenchmarkMetric.custom("async sequence: process CPU per value (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    let addedCPU = BenchmarkMetric.custom("async minus callback, per value (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "MotionManager CPU per delivered value: callback vs async sequence, interleaved, 1 kHz",
        configuration: .init(
            metrics: [callbackCPU, streamCPU, addedCPU],
            timeUnits: .microseconds,
            warmupIterations: 1,
            maxDuration: .seconds(30),
            maxIterations: 20
        )
    ) { benchmark in
        let rig = Rig()
        do {
            try rig.startCallback()
            _ = rig.log.wait(for: 10)
            let c0 = processCPU(), n0 = rig.log.count.load(ordering: .acquiring)
            guard rig.log.wait(for: n0 + values) else { throw BenchError("callback: fewer than \(values) values in 5 s") }
            let callback = (processCPU() - c0) / Int64(rig.log.count.load(ordering: .acquiring) - n0)
            rig.stop()

            try rig.startStream()
            for _ in 0 ..< 10 { _ = try await rig.stream?.next() }
            let s0 = processCPU()
            for _ in 0 ..< values {
                guard try await rig.stream?.next() != nil else { throw BenchError("the sequence ended") }
            }
            let stream = (processCPU() - s0) / Int64(values)
            rig.stop()
            benchmark.measurement(callbackCPU, Int(callback))
            benchmark.measurement(streamCPU, Int(stream))
            benchmark.measurement(addedCPU, Int(max(stream - callback, 0)))
        } catch {
            rig.stop()
            benchmark.fail("\(error)")
        }
    }
    BenchmarkRun.registrationDone()
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
}
