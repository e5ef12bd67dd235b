// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MotionCore
import MotionDevices
import Handoff

/// The sensor thread's per-read work without a device: events in, checked
/// samples into the ring.
@Suite("EvdevSampleFeeder: plausibility and a full ring")
struct EvdevSampleFeederTests {
    /// One frame: the given ABS values, then SYN_REPORT, all at `time`.
    func frame(_ axes: [(UInt16, Int32)], at time: Int64) -> [EvdevEvent] {
        axes.map { EvdevEvent(type: .abs, code: $0.0, value: $0.1, time: time) }
            + [EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: time)]
    }

    func feed(_ feeder: inout EvdevSampleFeeder, _ events: [EvdevEvent], into ring: SPSCRing<MotionSample>) -> Int {
        events.withUnsafeBufferPointer { feeder.feed($0, into: ring) }
    }

    func drain(_ ring: SPSCRing<MotionSample>) -> [MotionSample] {
        var got: [MotionSample] = []
        ring.drain { got.append($0) }
        return got
    }

    @Test("1 unit per g: 400 counts (400 g) pass, 401 and -401 are refused and counted")
    func accelerationLimit() {
        var feeder = EvdevSampleFeeder(assembler: EvdevSampleAssembler(accelResolution: 1, gyroResolution: nil))
        let ring = SPSCRing<MotionSample>(capacity: 8)
        let events = frame([(EvdevCode.absX, 400)], at: 1) + frame([(EvdevCode.absX, 401)], at: 2)
            + frame([(EvdevCode.absX, -401)], at: 3) + frame([(EvdevCode.absX, 0), (EvdevCode.absZ, -400)], at: 4)
        #expect(feed(&feeder, events, into: ring) == 2)
        #expect(drain(ring) == [
            MotionSample(timestamp: 1, acceleration: Vector3(400 * standardGravity, 0, 0), fields: .acceleration),
            MotionSample(timestamp: 4, acceleration: Vector3(0, 0, -400 * standardGravity), fields: .acceleration),
        ])
        #expect(ring.droppedCount == 0)
    }

    @Test("huge counts far beyond 400 g (Int32.max at 1 per g) are refused")
    func hugeCounts() {
        var feeder = EvdevSampleFeeder(assembler: EvdevSampleAssembler(accelResolution: 1, gyroResolution: 1))
        let ring = SPSCRing<MotionSample>(capacity: 8)
        let events = frame([(EvdevCode.absY, .max)], at: 1) + frame([(EvdevCode.absY, .min)], at: 2)
        #expect(feed(&feeder, events, into: ring) == 2)
        #expect(ring.isEmpty)
    }

    @Test("1 unit per °/s: 11459 °/s (under 200 rad/s) passes, 11460 °/s is refused")
    func rotationLimit() {
        var feeder = EvdevSampleFeeder(assembler: EvdevSampleAssembler(accelResolution: nil, gyroResolution: 1))
        let ring = SPSCRing<MotionSample>(capacity: 8)
        let events = frame([(EvdevCode.absRZ, 11459)], at: 1) + frame([(EvdevCode.absRZ, 11460)], at: 2)
        #expect(feed(&feeder, events, into: ring) == 1)
        #expect(drain(ring) == [MotionSample(timestamp: 1, rotationRate: Vector3(0, 0, 11459 / 1.0 * (.pi / 180)),
                                             fields: .rotationRate)])
    }

    @Test("a full ring refuses the newest samples and counts them in droppedCount, not as impossible")
    func fullRing() {
        var feeder = EvdevSampleFeeder(assembler: EvdevSampleAssembler(accelResolution: 100, gyroResolution: nil))
        let ring = SPSCRing<MotionSample>(capacity: 2)
        let events = (1...5).flatMap { frame([(EvdevCode.absX, Int32($0))], at: Int64($0)) }
        #expect(feed(&feeder, events, into: ring) == 0)
        #expect(ring.droppedCount == 3)
        #expect(drain(ring).map(\.timestamp) == [1, 2])
        // Room again: the next frame goes in.
        #expect(feed(&feeder, frame([(EvdevCode.absX, 6)], at: 6), into: ring) == 0)
        #expect(drain(ring).map(\.timestamp) == [6])
        #expect(ring.droppedCount == 3)
    }

    @Test("dropped(): the half-built frame makes no sample; the resync frame (no MSC) takes its kernel time")
    func droppedForgetsHalfFrame() {
        var feeder = EvdevSampleFeeder(assembler: EvdevSampleAssembler(accelResolution: 100, gyroResolution: nil))
        let ring = SPSCRing<MotionSample>(capacity: 8)
        let half = [EvdevEvent(type: .abs, code: EvdevCode.absX, value: 50, time: 10),
                    EvdevEvent(type: .msc, code: EvdevCode.mscTimestamp, value: 1_000, time: 10)]
        #expect(feed(&feeder, half, into: ring) == 0)
        feeder.dropped()
        #expect(feed(&feeder, [EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: 11)], into: ring) == 0)
        #expect(ring.isEmpty, "the half-built frame became a sample")
        #expect(feed(&feeder, frame([(EvdevCode.absX, 100), (EvdevCode.absY, 100)], at: 20), into: ring) == 0)
        #expect(drain(ring) == [MotionSample(timestamp: 20, acceleration: Vector3(standardGravity, standardGravity, 0),
                                             fields: .acceleration)])
    }
}
