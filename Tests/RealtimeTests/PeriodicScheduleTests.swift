// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Realtime

@Suite("Periodic schedule")
struct PeriodicScheduleTests {
    @Test("deadlines are one period apart from the start, and lateness is how far past the deadline it woke")
    func steadyDeadlines() {
        var s = PeriodicSchedule(period: 100, start: 1_000, maxCatchUp: 3)
        #expect(s.deadline == 1_100)
        #expect(s.woke(at: 1_100) == 0)
        #expect(s.deadline == 1_200)
        #expect(s.woke(at: 1_230) == 30)
        #expect(s.deadline == 1_300)
        #expect(s.woke(at: 1_290) == -10)
        #expect(s.deadline == 1_400)
        #expect(s.skippedPeriods == 0)
    }

    @Test("a wake-up up to maxCatchUp periods late keeps every deadline, so the missed periods run back to back")
    func boundedCatchUp() {
        var s = PeriodicSchedule(period: 100, start: 0, maxCatchUp: 3)
        // Woke at 400 for the deadline at 100: 200 past the next one, within 3 periods.
        #expect(s.woke(at: 400) == 300)
        #expect(s.deadline == 200)
        #expect(s.woke(at: 401) == 201)
        #expect(s.deadline == 300)
        #expect(s.skippedPeriods == 0)
    }

    @Test("a longer stall skips the missed periods whole: the deadlines keep their phase")
    func stallSkips() {
        var s = PeriodicSchedule(period: 100, start: 0, maxCatchUp: 3)
        #expect(s.woke(at: 10_050) == 9_950)
        #expect(s.deadline > 10_050)
        #expect(s.deadline <= 10_150)
        #expect(s.deadline % 100 == 0)
        #expect(s.skippedPeriods == UInt64((s.deadline - 200) / 100))
        #expect(s.woke(at: s.deadline) == 0)
    }

    @Test("maxCatchUp 0: any wake-up a whole period late skips to the next deadline after now")
    func noCatchUp() {
        var s = PeriodicSchedule(period: 10, start: 0, maxCatchUp: 0)
        s.woke(at: 35)
        #expect(s.deadline == 40)
        #expect(s.skippedPeriods == 2)
    }
}
