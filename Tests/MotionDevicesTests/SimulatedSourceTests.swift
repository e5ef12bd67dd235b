// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices
import Realtime
import TestSupport
import Handoff

@Suite("SimulatedSource")
struct SimulatedSourceTests {
    @Test("it produces samples on its own thread, stamped with increasing times on its period's grid")
    func producesSamples() throws {
        let source = SimulatedSource(rate: 500)
        var stamps: [Int64] = []
        try source.start()
        // Drained as they come, so a slow test thread cannot let the ring fill.
        #expect(eventually {
            source.samples.drain { stamps.append($0.timestamp) }
            return stamps.count >= 20
        })
        source.stop()
        source.samples.drain { stamps.append($0.timestamp) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        // Stamps sit on the 2 ms schedule (a long stall may skip slots, never shift them).
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { ($1 - $0) % 2_000_000 == 0 })
    }

    @Test("nudges accumulate to the commanded tilt, clamped, and level() zeroes it")
    func nudgeAndLevel() {
        let source = SimulatedSource(tiltStep: 0.1)
        source.nudge(right: 1, up: 0)
        source.nudge(right: 1, up: -1)
        #expect(abs(source.commandedTilt.roll - 0.2) < 1e-12)
        #expect(abs(source.commandedTilt.pitch + 0.1) < 1e-12)
        for _ in 0..<100 { source.nudge(right: 1, up: 0) }
        #expect(abs(source.commandedTilt.roll - TiltBoard().maxTilt) < 1e-12)
        source.level()
        #expect(source.commandedTilt.roll == 0 && source.commandedTilt.pitch == 0)
    }

    @Test("a commanded right tilt shows up in the samples as a -x specific force")
    func tiltReachesSamples() throws {
        let source = SimulatedSource(rate: 1000, tiltStep: 0.3)
        source.nudge(right: 1, up: 0)
        try source.start()
        // The board turns towards the commanded tilt at a limited rate: wait until it is there.
        var last: MotionSample?
        #expect(eventually {
            source.samples.drain { last = $0 }
            return (last?.acceleration.x ?? 0) < -2
        })
        source.stop()
        let s = try #require(last)
        #expect(s.acceleration.x < -2)
    }

    @Test("stop is idempotent and start after stop works again")
    func restartable() throws {
        let source = SimulatedSource(rate: 1000)
        source.stop()
        try source.start()
        source.stop()
        source.stop()
        try source.start()
        #expect(eventually { source.samples.count > 0 })
        source.stop()
    }
}
