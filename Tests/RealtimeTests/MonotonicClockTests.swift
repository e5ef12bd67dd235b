// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Realtime
import TestSupport

@Suite("Monotonic clock and deadline sleep")
struct MonotonicClockTests {
    @Test("the clock never goes back")
    func neverBack() {
        var last = MonotonicClock.now()
        for _ in 0 ..< 10_000 {
            let now = MonotonicClock.now()
            #expect(now >= last)
            last = now
        }
    }

    @Test("sleeping to a deadline returns at or after it, never before")
    func sleepsToDeadline() {
        for _ in 0 ..< 20 {
            let deadline = MonotonicClock.now() + 2_000_000
            MonotonicClock.sleep(until: deadline)
            #expect(MonotonicClock.now() >= deadline)
        }
    }

    @Test("a deadline in the past returns at once, and a far-past one is no error")
    func pastDeadline() {
        // Bounded only against a hang: a sleep that waited for a past deadline would never return.
        #expect(returns { MonotonicClock.sleep(until: 0) })
        #expect(returns { MonotonicClock.sleep(until: MonotonicClock.now() - 1_000_000_000) })
    }

    @Test("Duration converts to whole nanoseconds")
    func durationNanoseconds() {
        #expect(Duration.seconds(2).nanoseconds == 2_000_000_000)
        #expect(Duration.milliseconds(250).nanoseconds == 250_000_000)
        #expect(Duration.nanoseconds(7).nanoseconds == 7)
        #expect((Duration.seconds(1) + .nanoseconds(1)).nanoseconds == 1_000_000_001)
    }
}
