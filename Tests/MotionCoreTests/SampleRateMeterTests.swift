// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("Sample rate meter")
struct SampleRateMeterTests {
    @Test("the rate comes from the samples' own stamps, once a second of them has passed")
    func measures() {
        var meter = SampleRateMeter()
        for i in 0 ..< 200 { meter.add(Int64(i) * 5_000_000) }   // 200 Hz for 0.995 s
        #expect(meter.rate == nil)
        meter.add(200 * 5_000_000)
        #expect(meter.rate == 200)
        for i in 1 ... 100 { meter.add(1_000_000_000 + Int64(i) * 10_000_000) }   // then 100 Hz for a second
        #expect(meter.rate == 100)
    }
}
