// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Synchronization
import Realtime
import TestSupport

@Suite("Periodic thread")
struct PeriodicThreadTests {
    /// What the body saw, written by the periodic thread, read by the test.
    final class Record: Sendable {
        let ticks = Atomic<Int>(0)
        let misaligned = Atomic<Int>(0)
        let backwards = Atomic<Int>(0)
        let firstDeadline = Atomic<Int64>(0)
        let lastDeadline = Atomic<Int64>(0)

        func add(_ t: PeriodicThread.Tick, period: Int64) {
            let first = firstDeadline.load(ordering: .relaxed)
            if first == 0 {
                firstDeadline.store(t.deadline, ordering: .relaxed)
            } else if (t.deadline - first) % period != 0 {
                misaligned.add(1, ordering: .relaxed)
            }
            if t.deadline <= lastDeadline.load(ordering: .relaxed) || t.now < t.deadline { backwards.add(1, ordering: .relaxed) }
            lastDeadline.store(t.deadline, ordering: .relaxed)
            ticks.add(1, ordering: .releasing)
        }
    }

    @Test("it calls the body once per deadline, deadlines on one grid and increasing, woken never early, lateness recorded")
    func runs() throws {
        let period: Int64 = 2_000_000
        let thread = PeriodicThread(name: "test-periodic", period: period)
        let record = Record()
        try thread.start { record.add($0, period: period) }
        #expect(eventually { record.ticks.load(ordering: .acquiring) >= 20 })
        thread.stop()
        #expect(record.misaligned.load(ordering: .relaxed) == 0)
        #expect(record.backwards.load(ordering: .relaxed) == 0)
        #expect(thread.lateness.totalCount == UInt64(record.ticks.load(ordering: .acquiring)))
    }

    @Test("stop() waits for the thread: no body runs after it returns")
    func stopJoins() throws {
        let thread = PeriodicThread(name: "test-stop", period: 1_000_000)
        let record = Record()
        try thread.start { record.add($0, period: 1_000_000) }
        #expect(eventually { record.ticks.load(ordering: .acquiring) >= 3 })
        thread.stop()
        #expect(!thread.isRunning)
        let after = record.ticks.load(ordering: .acquiring)
        MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
        #expect(record.ticks.load(ordering: .acquiring) == after)
    }

    @Test("start twice runs one thread; stop without start and stop twice are harmless; it starts again after a stop")
    func lifeCycle() throws {
        let thread = PeriodicThread(name: "test-cycle", period: 1_000_000)
        thread.stop()
        let record = Record()
        try thread.start { record.add($0, period: 1_000_000) }
        try thread.start { _ in record.misaligned.add(1000, ordering: .relaxed) }
        #expect(eventually { record.ticks.load(ordering: .acquiring) >= 3 })
        thread.stop()
        thread.stop()
        #expect(record.misaligned.load(ordering: .relaxed) == 0)
        let again = Record()
        try thread.start { again.add($0, period: 1_000_000) }
        #expect(eventually { again.ticks.load(ordering: .acquiring) >= 3 })
        thread.stop()
    }
}
