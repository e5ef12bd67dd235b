import Testing
import MotionCore
import Realtime

@Suite("SimulatedSource")
struct SimulatedSourceTests {
    @Test("it produces samples on its own thread with increasing timestamps at about its rate")
    func producesSamples() throws {
        let source = SimulatedSource(rate: 500)
        try source.start()
        let begin = MonotonicClock.now()
        MonotonicClock.sleep(until: begin + 200_000_000)
        source.stop()
        var stamps: [Int64] = []
        source.samples.drain { stamps.append($0.timestamp) }
        // Generous bounds: the machine is shared; this checks it runs, not its timing.
        #expect(stamps.count > 10)
        #expect(stamps.count <= 256)
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
        MonotonicClock.sleep(until: MonotonicClock.now() + 150_000_000)
        source.stop()
        var last: MotionSample?
        source.samples.drain { last = $0 }
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
        MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
        source.stop()
        #expect(source.samples.count > 0)
    }
}
