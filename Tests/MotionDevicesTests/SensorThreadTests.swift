// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Handoff
import MotionCore
import Realtime
import Synchronization
import SystemCalls
import TestSupport
import LibC
@testable import MotionDevices

/// A device for `SensorThread` alone: each pass does what its script says
/// for that pass (the last entry repeats for ever), taking a millisecond, as
/// a real device's wait does. Which pass it is on, other threads may read.
final class ScriptedDevice: Sendable {
    enum Step: Sendable, Equatable {
        case sample
        case glitch          // EIO: what a glitching bus gives
        case silent          // nothing ready
        case gone            // ENODEV
        case implausible     // a reading no sensor makes
    }

    let script: [Step]
    private let passes = Atomic<Int>(0)
    private let calls = Atomic<Int>(0)

    init(_ script: [Step]) { self.script = script }

    /// Passes begun (a retry of a pass is not a new one).
    var passCount: Int { passes.load(ordering: .acquiring) }
    /// Reads made, retries included.
    var callCount: Int { calls.load(ordering: .acquiring) }

    /// The pass `thread.readLoop` runs: a retry (the loop's own) reads the
    /// same step again, as a retry reads the same sample of a real chip.
    func pass(on thread: SensorThread, judge: inout SamplePlausibility, time: inout Int64) throws(DeviceError) -> SensorThread.Pass {
        MonotonicClock.sleep(until: MonotonicClock.now() + 1_000_000)
        let index = passes.load(ordering: .relaxed)
        let step = script[min(index, script.count - 1)]
        calls.wrappingAdd(1, ordering: .releasing)
        switch step {
        case .glitch: throw DeviceError(errno: EIO, operation: "read", path: "/dev/fake")
        case .gone: throw DeviceError(errno: ENODEV, operation: "read", path: "/dev/fake")
        case .silent:
            passes.wrappingAdd(1, ordering: .releasing)
            return .nothing
        case .sample, .implausible:
            passes.wrappingAdd(1, ordering: .releasing)
            time += 5_000_000
            let g = step == .sample ? 9.81 : 1e9
            thread.offer(MotionSample(timestamp: time, acceleration: Vector3(0, 0, g), fields: .acceleration), judge: &judge)
            return .data
        }
    }
}

@Suite("SensorThread: the loop every source reads in, with a device that fails, stalls and recovers")
struct SensorThreadTests {
    let ring = SPSCRing<MotionSample>(capacity: 4096, bell: Doorbell())

    /// Starts the loop over `device` with `patience`, returning the thread;
    /// `switched` is set when the loop asks to read another way, `ended`
    /// once the loop has returned.
    func run(_ device: ScriptedDevice, _ patience: SensorThread.Patience, switched: Flag = Flag(), ended: Flag = Flag(),
             takeOver: Bool = false) throws -> SensorThread {
        let thread = SensorThread(samples: ring)
        thread.prepareStart()
        try thread.start(name: "test-sensor") {
            var judge = SamplePlausibility()
            var time: Int64 = 1_000_000_000
            thread.readLoop(patience,
                            keepsFailing: { "keeps failing: \($0.errno)" },
                            failed: { "failed: \($0.errno)" },
                            silent: { "silent" },
                            switchOver: {
                                switched.set()
                                return takeOver
                            }) { () throws(DeviceError) in
                try device.pass(on: thread, judge: &judge, time: &time)
            }
            ended.set()
        }
        return thread
    }

    func drained() -> [MotionSample] {
        var got: [MotionSample] = []
        while let sample = ring.pop() { got.append(sample) }
        return got
    }

    @Test("glitches are read again, counted, and a sample whose tries all fail is dropped; the samples after come through")
    func glitchesRecover() throws {
        // Two glitches (both retried away), then four in a row (a dropped
        // sample: three retries then a failure), then samples again.
        let device = ScriptedDevice([.sample, .glitch, .glitch, .sample, .glitch, .glitch, .glitch, .glitch, .sample])
        // The script's glitches belong to passes: a glitch is one call that
        // does not end its pass, so the script is read per call here.
        let perCall = CallScriptedDevice(device.script)
        let thread = SensorThread(samples: ring)
        thread.prepareStart()
        try thread.start(name: "test-sensor") {
            var judge = SamplePlausibility()
            var time: Int64 = 1_000_000_000
            thread.readLoop(.init(slice: 250_000_000), keepsFailing: { "keeps failing: \($0.errno)" },
                            failed: { "failed: \($0.errno)" }) { () throws(DeviceError) in
                try perCall.pass(on: thread, judge: &judge, time: &time)
            }
        }
        defer { thread.stop() }
        #expect(eventually { thread.retryCount >= 5 && thread.failedSampleCount == 1 && ring.count >= 3 })
        thread.stop()
        #expect(thread.failure == nil)
        #expect(thread.retryCount == 5)
        #expect(thread.failedSampleCount == 1)
        let got = drained()
        #expect(got.count >= 3)
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test("a device that keeps failing ends the source after a second, with the source's words for it")
    func keepsFailing() throws {
        let device = ScriptedDevice([.sample, .glitch])
        let thread = try run(device, .init(slice: 250_000_000))
        defer { thread.stop() }
        #expect(eventually { thread.failure != nil })
        #expect(thread.failure == "keeps failing: \(EIO)")
        #expect(!thread.isRunning)
        #expect(thread.failedSampleCount >= 1)
        #expect(drained().count == 1)
    }

    @Test("an error that is no glitch ends the source at once, with the source's words for it")
    func goneEndsAtOnce() throws {
        let device = ScriptedDevice([.sample, .sample, .gone])
        let thread = try run(device, .init(slice: 250_000_000))
        defer { thread.stop() }
        #expect(eventually { thread.failure != nil })
        #expect(thread.failure == "failed: \(ENODEV)")
        #expect(thread.retryCount == 0)
        #expect(device.callCount == 3)
    }

    @Test("a stall: switched over once after switchAfter, ended after failAfter with the source's reason; a sample starts the count again")
    func stallSwitchesThenEnds() throws {
        let switched = Flag()
        // Each pass sleeps at least 1 ms and counts at most the 1 ms slice:
        // every silent pass adds exactly 1 ms, however loaded the machine.
        // 200 silent passes, a sample, then silence for good: ended 301
        // passes after the sample (101 if the sample did not reset the count).
        let device = ScriptedDevice(Array(repeating: .silent, count: 200) + [.sample, .silent])
        let thread = try run(device, .init(slice: 1_000_000, switchAfter: 150_000_000, failAfter: 300_000_000), switched: switched)
        defer { thread.stop() }
        #expect(eventually { thread.failure != nil })
        #expect(thread.failure == "silent")
        #expect(switched.isSet)
        #expect(device.passCount >= 201 + 300)
        #expect(drained().count == 1)
    }

    @Test("a switch that takes over ends the loop, the source still fine, and no silence limit reached")
    func switchTakesOver() throws {
        let switched = Flag(), ended = Flag()
        let device = ScriptedDevice([.silent])
        let thread = try run(device, .init(slice: 5_000_000, switchAfter: 50_000_000, failAfter: 60_000_000),
                             switched: switched, ended: ended, takeOver: true)
        defer { thread.stop() }
        #expect(eventually { ended.isSet })
        #expect(switched.isSet)
        #expect(thread.failure == nil)
    }

    @Test("a silent device with no limit is waited for until stopped; stop ends the loop and joins the thread, and a second stop has nothing to do")
    func silentWithoutLimit() throws {
        let ended = Flag()
        let device = ScriptedDevice([.silent])
        let thread = try run(device, .init(slice: 1_000_000), ended: ended)
        #expect(eventually { device.passCount > 100 })
        #expect(thread.failure == nil)
        #expect(!ended.isSet)
        #expect(thread.stop())
        #expect(ended.isSet)
        #expect(!thread.stop())
    }

    @Test("a reading no sensor makes is refused and counted, not pushed")
    func implausibleRefused() throws {
        let device = ScriptedDevice([.sample, .implausible, .implausible, .sample, .silent])
        let thread = try run(device, .init(slice: 1_000_000))
        defer { thread.stop() }
        #expect(eventually { device.passCount >= 5 })
        thread.stop()
        #expect(thread.rejectedCount == 2)
        #expect(drained().count == 2)
    }
}

/// `ScriptedDevice` read call by call: a glitch is one failed call (a
/// retry reads the next step), so a script can say how many tries fail.
final class CallScriptedDevice: Sendable {
    let script: [ScriptedDevice.Step]
    private let calls = Atomic<Int>(0)

    init(_ script: [ScriptedDevice.Step]) { self.script = script }

    func pass(on thread: SensorThread, judge: inout SamplePlausibility, time: inout Int64) throws(DeviceError) -> SensorThread.Pass {
        MonotonicClock.sleep(until: MonotonicClock.now() + 1_000_000)
        let index = calls.wrappingAdd(1, ordering: .relaxed).oldValue
        switch script[min(index, script.count - 1)] {
        case .glitch: throw DeviceError(errno: EIO, operation: "read", path: "/dev/fake")
        case .gone: throw DeviceError(errno: ENODEV, operation: "read", path: "/dev/fake")
        case .silent: return .nothing
        case .sample, .implausible:
            time += 5_000_000
            thread.offer(MotionSample(timestamp: time, acceleration: Vector3(0, 0, 9.81), fields: .acceleration), judge: &judge)
            return .data
        }
    }
}
