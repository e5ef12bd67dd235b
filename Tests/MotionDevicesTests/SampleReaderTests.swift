// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Handoff
import MotionCore
import Realtime
import Synchronization
import SystemCalls
import TestSupport
@testable import MotionDevices

/// A source the test plays by hand: it pushes samples, fails, is
/// interrupted and comes back, or ends, as the test says, through a
/// `SensorThread` as the device sources do (so its bell rings as theirs
/// does). It counts how often its health is read.
final class HandPlayedSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: every member is immutable or atomic, or the
    // SensorThread's (itself Sendable by design).
    let thread: SensorThread
    private let healthReads = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    private let time = Atomic<Int64>(0)

    init(bell: Bool = true) {
        thread = SensorThread(samples: bell ? SPSCRing(capacity: 64, bell: Doorbell()) : SPSCRing(capacity: 64))
    }

    var displayName: String { "hand-played" }
    var samples: SPSCRing<MotionSample> { thread.samples }
    var calibrationIdentity: String? { nil }
    var rate: Double { 200 }
    func start() throws {}
    func stop() {}
    var health: SourceHealth {
        healthReads.wrappingAdd(1, ordering: .relaxed)
        return thread.health
    }
    var statusChanges: UInt64 { thread.statusChanges }
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    var healthReadCount: Int { healthReads.load(ordering: .relaxed) }

    /// Pushes `count` samples 5 ms apart in their own time. Producer side.
    func deliver(_ count: Int) {
        var judge = SamplePlausibility()
        for _ in 0..<count {
            let t = time.add(5_000_000, ordering: .relaxed).newValue
            thread.offer(MotionSample(timestamp: t, acceleration: Vector3(0, 0, 9.81), fields: .acceleration), judge: &judge)
        }
    }

    /// The recording is over, as a replay says it: after its last push, then the bell.
    func end() {
        ended.store(true, ordering: .releasing)
        samples.bell?.ring()
    }
}

@Suite("SampleReader: samples handed on as they come, the doorbell heard, the status read on a change, every stop reached")
struct SampleReaderTests {
    /// Reads until a stop or `bound` seconds (a hang), collecting timestamps.
    static func readUntilStop(_ reader: inout SampleReader, seconds bound: Double = hangBound,
                              into seen: inout [Int64]) -> SampleReader.Stop? {
        let deadline = MonotonicClock.now() + Int64(bound * 1e9)
        while true {
            if let stop = reader.read(until: deadline, { seen.append($0.timestamp) }) { return stop }
        }
    }

    @Test("samples pushed on another thread are handed on in order, each once, woken by the bell")
    func delivers() throws {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        let producer = try OSThread(name: "test-producer") {
            for _ in 0..<20 {
                source.deliver(5)
                MonotonicClock.sleep(until: MonotonicClock.now() + 2_000_000)
            }
            source.end()
        }
        defer { producer.join() }
        var seen: [Int64] = []
        let stop = Self.readUntilStop(&reader, into: &seen)
        #expect(stop == .ended)
        #expect(seen == (1...100).map { Int64($0) * 5_000_000 }, "every sample once, oldest first, the last ones before .ended")
    }

    @Test("a source that stalls is waited on, not polled: a wake-up per status period at most, then the deadline")
    func stallCostsFewWakeUps() {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        var seen: [Int64] = []
        let stall = 0.5
        let stop = Self.readUntilStop(&reader, seconds: stall, into: &seen)
        #expect(stop == .deadline)
        #expect(seen.isEmpty)
        // A reader sleeping 5 ms between looks, as the loops it replaced did, would have woken 100 times.
        let most = Int(stall * 1e9 / Double(SampleReader.statusPeriod)) + 2
        #expect(reader.wakeups >= 1 && reader.wakeups <= most, "\(reader.wakeups) wake-ups in \(stall) s")
    }

    @Test("a failure wakes the reader at once and is its stop, in the source's words; the samples before it were handed on")
    func failure() throws {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        let producer = try OSThread(name: "test-producer") {
            source.deliver(3)
            // Long enough that the reader is asleep on the bell, not looking by chance.
            MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
            source.thread.fail("/dev/fake: the device went away")
        }
        defer { producer.join() }
        var seen: [Int64] = []
        let stop = Self.readUntilStop(&reader, into: &seen)
        #expect(stop == .failed("/dev/fake: the device went away"))
        #expect(seen.count == 3)
        #expect(reader.health.failure == "/dev/fake: the device went away")
    }

    @Test("an interruption is said once; the reads after it wait, and samples flow again when it is over")
    func interruptionAndRecovery() throws {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        source.deliver(2)
        var seen: [Int64] = []
        #expect(reader.read(until: .max, { seen.append($0.timestamp) }) == nil)
        #expect(seen.count == 2)

        source.thread.setInterruption("the controller is away")
        #expect(reader.read(until: .max, { seen.append($0.timestamp) }) == .interrupted("the controller is away"))
        // Said once: the next reads only wait, until the deadline.
        let soon = MonotonicClock.now() + 300_000_000
        var again: SampleReader.Stop?
        repeat { again = reader.read(until: soon, { seen.append($0.timestamp) }) } while again == nil
        #expect(again == .deadline)
        #expect(reader.health.interruption == "the controller is away")

        source.thread.setInterruption(nil)
        source.deliver(1)
        var back: SampleReader.Stop?
        repeat { back = reader.read(until: .max, { seen.append($0.timestamp) }) } while back == nil && seen.count < 3
        #expect(back == nil)
        #expect(seen.count == 3)
        #expect(reader.health.interruption == nil, "the reader saw it end")
    }

    @Test("the source's health is read only when its status count moved, however often the reader looks")
    func statusReadOnChange() {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        for _ in 0..<50 {
            source.deliver(1)
            _ = reader.read(until: .max) { _ in }
        }
        #expect(source.healthReadCount == 1, "the first look, then none: nothing changed")
        source.thread.setNotice("polling instead")
        source.deliver(1)
        _ = reader.read(until: .max) { _ in }
        #expect(source.healthReadCount == 2)
        #expect(reader.health.notice == "polling instead")
    }

    @Test("a source that ends with samples still in its ring: they are handed on first, then .ended")
    func endsAfterItsLastSamples() {
        let source = HandPlayedSource()
        var reader = SampleReader(source)
        source.deliver(4)
        source.end()
        var seen: [Int64] = []
        let stop = Self.readUntilStop(&reader, into: &seen)
        #expect(stop == .ended)
        #expect(seen.count == 4)
    }

    @Test("a ring with no doorbell is looked at every poll period, and its samples still come")
    func ringWithoutBell() throws {
        let source = HandPlayedSource(bell: false)
        var reader = SampleReader(source)
        let producer = try OSThread(name: "test-producer") {
            MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
            source.deliver(3)
            source.end()
        }
        defer { producer.join() }
        var seen: [Int64] = []
        #expect(Self.readUntilStop(&reader, into: &seen) == .ended)
        #expect(seen.count == 3)
    }
}
