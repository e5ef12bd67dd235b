// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices

@Suite("Evdev motion events to samples")
struct EvdevSampleAssemblerTests {
    typealias C = EvdevSampleAssembler.Code

    /// Feeds (type, code, value) events at kernel time `time` and returns the samples made.
    func feed(_ a: inout EvdevSampleAssembler, _ events: [(UInt16, UInt16, Int32)], time: Int64) -> [MotionSample] {
        events.compactMap { a.add(type: $0.0, code: $0.1, value: $0.2, time: time) }
    }

    @Test("DualSense: 8192 units per g and 1024 units per °/s become m/s² and rad/s at SYN_REPORT")
    func dualSenseUnits() {
        var a = EvdevSampleAssembler(accelResolution: 8192, gyroResolution: 1024)
        let s = feed(&a, [(C.evAbs, C.absX, 8192), (C.evAbs, C.absY, -4096), (C.evAbs, C.absZ, 0),
                          (C.evAbs, C.absRX, 1024), (C.evAbs, C.absRY, -2048), (C.evAbs, C.absRZ, 512),
                          (C.evSyn, C.synReport, 0)], time: 1_000)
        #expect(s.count == 1)
        #expect(s[0].timestamp == 1_000)
        #expect(s[0].acceleration == Vector3(standardGravity, -0.5 * standardGravity, 0))
        #expect(s[0].rotationRate == Vector3(.pi / 180, -2 * .pi / 180, 0.5 * .pi / 180))
        #expect(s[0].fields == [.acceleration, .rotationRate])
    }

    @Test("axes not in a report keep their last value")
    func unchangedAxesPersist() {
        var a = EvdevSampleAssembler(accelResolution: 100, gyroResolution: nil)
        _ = feed(&a, [(C.evAbs, C.absX, 100), (C.evAbs, C.absZ, 50), (C.evSyn, C.synReport, 0)], time: 1)
        let s = feed(&a, [(C.evAbs, C.absY, 100), (C.evSyn, C.synReport, 0)], time: 2)
        #expect(s.first?.acceleration == Vector3(standardGravity, standardGravity, 0.5 * standardGravity))
        #expect(s.first?.fields == .acceleration)
    }

    @Test("a SYN_REPORT with neither an axis change nor a timestamp makes no sample")
    func emptyReport() {
        var a = EvdevSampleAssembler(accelResolution: 100, gyroResolution: 100)
        #expect(feed(&a, [(C.evSyn, C.synReport, 0)], time: 1).isEmpty)
    }

    @Test("a frame with only MSC_TIMESTAMP is a sample of the unchanged values (a controller lying still)")
    func stillFrame() {
        var a = EvdevSampleAssembler(accelResolution: 4096, gyroResolution: 14247)
        _ = feed(&a, [(C.evMsc, C.mscTimestamp, 0), (C.evAbs, C.absZ, 4096), (C.evSyn, C.synReport, 0)], time: 1_000_000)
        let still = feed(&a, [(C.evMsc, C.mscTimestamp, 5000), (C.evSyn, C.synReport, 0)], time: 1_100_000)
        #expect(still.count == 1)
        #expect(still.first?.timestamp == 6_000_000, "5 ms after the first by the device's clock")
        #expect(still.first?.acceleration == Vector3(0, 0, standardGravity))
    }

    @Test("Joy-Con: three reports in one batch are spaced by MSC_TIMESTAMP, anchored to the first kernel time")
    func mscSpacing() {
        var a = EvdevSampleAssembler(accelResolution: 4096, gyroResolution: 14247)
        var times: [Int64] = []
        for (i, msc) in [Int32(1_000_000), 1_005_000, 1_010_000].enumerated() {
            times += feed(&a, [(C.evAbs, C.absX, Int32(i)), (C.evMsc, C.mscTimestamp, msc), (C.evSyn, C.synReport, 0)],
                          time: 50_000_000).map(\.timestamp)
        }
        #expect(times == [50_000_000, 55_000_000, 60_000_000])
    }

    @Test("MSC_TIMESTAMP wrapping past 2^32 µs keeps time moving forward")
    func mscWrap() {
        var clock = MSCTimestampClock()
        let t0 = clock.time(raw: Int32(bitPattern: 4_294_967_000), eventTime: 10_000_000)
        let t1 = clock.time(raw: 300, eventTime: 10_600_000)
        #expect(t0 == 10_000_000)
        #expect(t1 == 10_000_000 + 596_000)
    }

    @Test("a device clock drifting far from the kernel's is re-anchored")
    func reanchor() {
        var clock = MSCTimestampClock()
        _ = clock.time(raw: 0, eventTime: 0)
        // The device says 1 s passed, the kernel 2 s: more than the allowed drift.
        #expect(clock.time(raw: 1_000_000, eventTime: 2_000_000_000) == 2_000_000_000)
        #expect(clock.time(raw: 1_010_000, eventTime: 2_010_000_000) == 2_010_000_000)
    }

    @Test("resolution 0 on the accelerometer: scaled by gravity once the device has been still")
    func gravityScaled() {
        var a = EvdevSampleAssembler(accelResolution: 0, gyroResolution: 0)
        var samples: [MotionSample] = []
        for i in 0..<60 {
            samples += feed(&a, [(C.evAbs, C.absZ, 1000 + Int32(i % 2)), (C.evSyn, C.synReport, 0)], time: Int64(i))
        }
        // Nothing until 50 still readings; then 1000.5 units ≈ 1 g.
        #expect(samples.count == 11)
        #expect(abs(samples[0].acceleration.z - standardGravity) < 0.01)
        #expect(samples.allSatisfy { $0.fields == .acceleration })
    }

    @Test("the gravity scale waits while the device moves")
    func gravityScaleWaitsForStillness() {
        var e = GravityScaleEstimator()
        for i in 0..<100 { _ = e.add(Vector3(0, 0, i % 2 == 0 ? 800 : 1200)) }
        #expect(e.unitsPerG == nil)
    }

    @Test("the mount matrix turns device axes into the board's")
    func mount() throws {
        let m = try #require(MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        var a = EvdevSampleAssembler(accelResolution: 1, gyroResolution: nil, mount: m)
        let s = feed(&a, [(C.evAbs, C.absX, 1), (C.evSyn, C.synReport, 0)], time: 1)
        #expect(s.first?.acceleration == Vector3(0, -standardGravity, 0))
    }
}
