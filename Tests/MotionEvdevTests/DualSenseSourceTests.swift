// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices
import MotionCore
import MotionDevices

/// A DualSense-like motion node (8192 per g, 1024 per °/s, MSC_TIMESTAMP)
/// read by `EvdevMotionSource` on its own thread.
extension EvdevSourceMockSuites {
    @Suite("DualSense-like node: exact SI values, MSC_TIMESTAMP spacing", .enabled(if: UmockdevPreload.isActive))
    struct DualSense {
        let motion = MockEvdevDevice.dualSenseMotion()

        @Test("frames become samples in order, in m/s² and rad/s, spaced by the device clock, not the jittery kernel times")
        func exactSamples() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                // The kernel stamps this reader's events with CLOCK_MONOTONIC, the game's clock.
                #expect(testbed.evdevHandler(for: motion.devicePath)?.clockIDs == [EvdevClock.monotonic.rawValue])
                #expect(testbed.evdevHandler(for: motion.devicePath)?.unansweredRequests.isEmpty == true)
                // Its resolution gives units: the accelerometer may be calibrated.
                #expect(source.scales?.accelerometerScaledByGravity == false)
                let t0: Int64 = 5_000_000_000
                // Kernel times 0, 4.3 and 7.7 ms; device clock 0, 4 and 8 ms.
                let stream = dualSenseFrame((100, -200, 8192), (1024, -2048, 512), device: 1_000, at: t0)
                    + dualSenseFrame((300, 400, 8000), (-10, 20, -30), device: 5_000, at: t0 + 4_300_000)
                    + dualSenseFrame((-8192, 0, 1), (0, 0, 2_097_152), device: 9_000, at: t0 + 7_700_000)
                try testbed.writeEvents(stream, to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 3)
                #expect(got == [
                    Expected.dualSense((100, -200, 8192), (1024, -2048, 512), at: t0),
                    Expected.dualSense((300, 400, 8000), (-10, 20, -30), at: t0 + 4_000_000),
                    Expected.dualSense((-8192, 0, 1), (0, 0, 2_097_152), at: t0 + 8_000_000),
                ])
                #expect(got.allSatisfy { $0.fields == [.acceleration, .rotationRate] })
                #expect(source.rejectedCount == 0)
                #expect(source.failure == nil)
                #expect(source.interruption == nil)
            }
        }

        @Test("the 32-bit MSC_TIMESTAMP wrapping (0xFFFFFF00 → 0x00000F00) gives a forward spacing of 4096 µs")
        func mscWraps() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                let t0: Int64 = 9_000_000_000
                let stream = dualSenseFrame((1, 2, 8192), (3, 4, 5), device: 0xFFFF_FF00, at: t0)
                    + dualSenseFrame((6, 7, 8190), (8, 9, 10), device: 0x0000_0F00, at: t0 + 4_500_000)
                    + dualSenseFrame((11, 12, 8188), (13, 14, 15), device: 0x0000_1F00, at: t0 + 8_300_000)
                try testbed.writeEvents(stream, to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 3)
                #expect(got.map(\.timestamp) == [t0, t0 + 4_096_000, t0 + 8_192_000])
                #expect(got == [
                    Expected.dualSense((1, 2, 8192), (3, 4, 5), at: t0),
                    Expected.dualSense((6, 7, 8190), (8, 9, 10), at: t0 + 4_096_000),
                    Expected.dualSense((11, 12, 8188), (13, 14, 15), at: t0 + 8_192_000),
                ])
            }
        }

        @Test("axes the first report leaves out come from the device's absinfo values; later reports keep the last values")
        func initialValuesFromAbsInfo() throws {
            var device = motion
            let present: [(UInt16, Int32)] = [(LinuxInput.ABS_X, 50), (LinuxInput.ABS_Y, -60), (LinuxInput.ABS_Z, 8192),
                                              (LinuxInput.ABS_RX, 7), (LinuxInput.ABS_RY, -8), (LinuxInput.ABS_RZ, 9)]
            for (code, value) in present { device.absInfo[code]?.value = value }
            try EvdevSourceMockSuites.withTestbed([device]) { testbed in
                let source = SourceUnderTest.make(device)
                try source.start()
                defer { source.stop() }
                let t0: Int64 = 2_000_000_000
                let t1 = t0 + 4_000_000
                let stream: [MockInputEvent] = [
                    .abs(LinuxInput.ABS_Y, 100, at: t0), .abs(LinuxInput.ABS_RZ, 1024, at: t0),
                    .mscTimestamp(2_000, at: t0), .synReport(at: t0),
                    .abs(LinuxInput.ABS_X, 0, at: t1), .mscTimestamp(6_000, at: t1), .synReport(at: t1),
                ]
                try testbed.writeEvents(stream, to: device.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 2)
                #expect(got == [
                    Expected.dualSense((50, 100, 8192), (7, -8, 1024), at: t0),
                    Expected.dualSense((0, 100, 8192), (7, -8, 1024), at: t1),
                ])
            }
        }

        @Test("a frame beyond 400 g is refused and counted; the frames around it pass")
        func impossibleFrameRefused() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                let t0: Int64 = 3_000_000_000
                // 3 300 000 counts at 8192 per g: about 403 g.
                let stream = dualSenseFrame((1, 2, 8192), (0, 0, 0), device: 100, at: t0)
                    + dualSenseFrame((3_300_000, 2, 8192), (0, 0, 0), device: 4_100, at: t0 + 4_000_000)
                    + dualSenseFrame((5, 6, 8192), (0, 0, 0), device: 8_100, at: t0 + 8_000_000)
                try testbed.writeEvents(stream, to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 2)
                #expect(got == [
                    Expected.dualSense((1, 2, 8192), (0, 0, 0), at: t0),
                    Expected.dualSense((5, 6, 8192), (0, 0, 0), at: t0 + 8_000_000),
                ])
                #expect(source.rejectedCount == 1)
                #expect(source.failure == nil)
            }
        }

        @Test("name, nominal rate and display name come from the node")
        func identity() throws {
            let source = SourceUnderTest.make(motion)
            #expect(source.profile.kind == .dualSense)
            #expect(source.rate == 250)
            #expect(source.displayName == "\(motion.name) on /dev/input/event0")
        }
    }
}

@Suite("DualSense source mock tests, run under umockdev-wrapper")
struct DualSenseSourceUnderPreload {
    @Test("the DualSense source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("DualSense")
    }
}
