// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionDevices

@Suite("A recording let through at its own pace")
struct ReplayPaceTests {
    final class FakeClock {
        var now: Int64 = 5_000_000_000
        var sleeps: [Int64] = []
    }

    @Test("the first sample goes at once; each later one when as long has passed since it as their timestamps say, from absolute deadlines")
    func deadlines() {
        let clock = FakeClock()
        var pace = ReplayPace(now: { clock.now }, sleep: { clock.sleeps.append($0); clock.now = $0 })
        pace.wait(for: 1_000_000_000)
        #expect(clock.sleeps.isEmpty)
        pace.wait(for: 1_010_000_000)
        #expect(clock.sleeps == [5_010_000_000])
        // Late (the output was slow): no sleep, and the next deadline is still counted from the first sample.
        clock.now += 50_000_000
        pace.wait(for: 1_020_000_000)
        #expect(clock.sleeps == [5_010_000_000])
        pace.wait(for: 1_100_000_000)
        #expect(clock.sleeps == [5_010_000_000, 5_100_000_000])
    }
}
