// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import Realtime
import Synchronization
import Testing
import TestSupport

@Suite("Doorbell: a consumer sleeps until the producer pushes")
struct DoorbellTests {
    /// Longer than any test waits: a wait that returns did so because it was rung.
    static let longer: Int64 = Int64(hangBound * 4 * 1e9)

    @Test("a ring wakes a waiter long before its timeout")
    func ringWakes() {
        let bell = Doorbell()
        let seen = bell.rings
        let woke = Atomic<Bool>(false)
        let waiter = try? OSThread(name: "test-waiter") {
            bell.wait(after: seen, timeout: Self.longer)
            woke.store(true, ordering: .releasing)
        }
        // Ring until it wakes: the first ring may come before the waiter sleeps, which must also wake it.
        let wakes = eventually { bell.ring(); return woke.load(ordering: .acquiring) }
        #expect(wakes, "the waiter slept through the rings")
        if wakes { waiter?.join() }
    }

    @Test("a ring after the count was read, before the wait, is not lost: the wait returns at once")
    func ringBeforeWait() {
        let bell = Doorbell()
        let seen = bell.rings
        bell.ring()
        #expect(returns { bell.wait(after: seen, timeout: Self.longer) }, "the wait slept through a ring")
    }

    @Test("with no ring, the wait ends at its timeout")
    func timesOut() {
        let bell = Doorbell()
        #expect(returns { bell.wait(after: bell.rings, timeout: 20_000_000) })
    }

    @Test("a ring made with the bell rings it on each push, not on a refused one")
    func ringPushes() {
        let bell = Doorbell()
        let ring = SPSCRing<Int>(capacity: 2, bell: bell)
        let before = bell.rings
        ring.push(1)
        ring.push(2)
        ring.push(3)  // full: refused
        #expect(bell.rings &- before == 2)
    }
}
