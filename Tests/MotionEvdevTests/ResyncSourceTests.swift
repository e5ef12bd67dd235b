// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import MotionCore
import MotionDevices

/// SYN_DROPPED while the source reads: the mock writes SYN_DROPPED where the
/// kernel would, then frames the reader never gets (libevdev drains them),
/// while the ioctl handler keeps the device's true state, which libevdev's
/// resync reads back (EVIOCGABS) and restates without MSC_TIMESTAMP, stamped
/// with the drop's time. Each drop is written in one piece with the half
/// frame before it and the frames it swallows, so the reader sees it whole.
extension EvdevSourceMockSuites {
    @Suite("SYN_DROPPED mid-stream", .enabled(if: UmockdevPreload.isActive))
    struct Resync {
        let motion = MockEvdevDevice.dualSenseMotion()
        let t0: Int64 = 1_000_000_000

        /// A half-built frame (ABS_X 150 and its MSC_TIMESTAMP, no SYN_REPORT),
        /// the drop at `dropTime`, and two frames the drop swallows; the device
        /// ends at (310, 400, 8000), (10, 26, 30). The half frame's device time
        /// must not reach any sample (it would shift the resynced sample's time).
        func drop(at dropTime: Int64, halfFrameDevice: UInt32) -> [MockInputEvent] {
            [.abs(LinuxInput.ABS_X, 150, at: dropTime - 100_000), .mscTimestamp(halfFrameDevice, at: dropTime - 100_000),
             .synDropped(at: dropTime)]
                + dualSenseFrame((300, 400, 8000), (10, 25, 30), device: 9_000, at: dropTime + 1_000_000)
                + dualSenseFrame((310, 400, 8000), (10, 26, 30), device: 13_000, at: dropTime + 5_000_000)
        }

        @Test("samples before the drop are intact; the half frame makes no sample; the resync gives the present state at the drop's time; later frames are normal")
        func dropMidStream() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                let before = dualSenseFrame((100, 200, 8192), (10, 20, 30), device: 1_000, at: t0)
                try testbed.writeEvents(before, to: motion.devicePath, waitUntilQueued: false)
                let first = SourceUnderTest.collect(source, count: 1)
                #expect(first == [Expected.dualSense((100, 200, 8192), (10, 20, 30), at: t0)])

                let dropTime = t0 + 9_000_000
                try testbed.writeEvents(drop(at: dropTime, halfFrameDevice: 3_000), to: motion.devicePath, waitUntilQueued: false)
                let resynced = SourceUnderTest.collect(source, count: 1)
                #expect(resynced == [Expected.dualSense((310, 400, 8000), (10, 26, 30), at: dropTime)])
                #expect(!resynced.contains { $0.acceleration.x == Expected.acceleration((150, 0, 0), perG: 8192).x },
                        "a sample carries the half-built frame's ABS_X")

                // The device clock goes on from the last MSC_TIMESTAMP seen (1000 µs at t0).
                let after = dualSenseFrame((311, 401, 8001), (11, 27, 31), device: 17_000, at: t0 + 16_200_000)
                try testbed.writeEvents(after, to: motion.devicePath, waitUntilQueued: false)
                let later = SourceUnderTest.collect(source, count: 1)
                #expect(later == [Expected.dualSense((311, 401, 8001), (11, 27, 31), at: t0 + 16_000_000)])
                #expect(source.rejectedCount == 0)
                #expect(source.failure == nil)
            }
        }

        @Test("a resync stamped before the last device-clock time takes that time: time never goes backwards, nothing is refused")
        func resyncNeverGoesBack() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                // The device clock runs ahead: the second frame is at t0 + 4 ms by MSC, 3 ms by the kernel.
                let before = dualSenseFrame((100, 200, 8192), (10, 20, 30), device: 1_000, at: t0)
                    + dualSenseFrame((110, 210, 8190), (11, 21, 31), device: 5_000, at: t0 + 3_000_000)
                try testbed.writeEvents(before, to: motion.devicePath, waitUntilQueued: false)
                let first = SourceUnderTest.collect(source, count: 2)
                #expect(first == [Expected.dualSense((100, 200, 8192), (10, 20, 30), at: t0),
                                  Expected.dualSense((110, 210, 8190), (11, 21, 31), at: t0 + 4_000_000)])

                // Dropped at t0 + 3.5 ms by the kernel's clock: behind the last sample.
                try testbed.writeEvents(drop(at: t0 + 3_500_000, halfFrameDevice: 9_000), to: motion.devicePath, waitUntilQueued: false)
                let resynced = SourceUnderTest.collect(source, count: 1)
                #expect(resynced == [Expected.dualSense((310, 400, 8000), (10, 26, 30), at: t0 + 4_000_000)])

                let after = dualSenseFrame((311, 401, 8001), (11, 27, 31), device: 17_000, at: t0 + 16_300_000)
                try testbed.writeEvents(after, to: motion.devicePath, waitUntilQueued: false)
                let later = SourceUnderTest.collect(source, count: 1)
                #expect(later == [Expected.dualSense((311, 401, 8001), (11, 27, 31), at: t0 + 16_000_000)])
                #expect(source.rejectedCount == 0)
            }
        }
    }
}

@Suite("Resync source mock tests, run under umockdev-wrapper")
struct ResyncSourceUnderPreload {
    @Test("the SYN_DROPPED source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("Resync")
    }
}
