// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices
import TestSupport
import MotionCore
import MotionDevices

/// The life cycle: start, stop, start again; stop without start; start twice.
extension EvdevSourceMockSuites {
    @Suite("start/stop life cycle", .enabled(if: UmockdevPreload.isActive))
    struct Restart {
        let motion = MockEvdevDevice.dualSenseMotion()

        @Test("stop() then start() again: the node reopens with the device's present values and samples flow again")
        func restart() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                defer { source.stop() }
                try source.start()
                let t0: Int64 = 4_000_000_000
                try testbed.writeEvents(dualSenseFrame((1, 2, 8192), (3, 4, 5), device: 100, at: t0),
                                        to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((1, 2, 8192), (3, 4, 5), at: t0)])
                #expect(returns { source.stop() }, "stop() did not return: it hung")

                try source.start()
                // Only ABS_X changes: the rest must come from the device's state at the reopen.
                let t1: Int64 = 6_000_000_000
                try testbed.writeEvents([.abs(LinuxInput.ABS_X, -8192, at: t1), .mscTimestamp(50_000, at: t1), .synReport(at: t1)],
                                        to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((-8192, 2, 8192), (3, 4, 5), at: t1)])
                #expect(source.failure == nil)
                #expect(source.interruption == nil)
            }
        }

        @Test("stop() without start() and stop() twice are harmless; the source still starts afterwards")
        func stopWithoutStart() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                source.stop()
                #expect(source.failure == nil)
                #expect(source.interruption == nil)
                try source.start()
                try testbed.writeEvents(dualSenseFrame((1, 2, 3), (4, 5, 6), device: 1, at: 2_000_000_000),
                                        to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1).count == 1)
                source.stop()
                source.stop()
                #expect(source.failure == nil)
            }
        }

        @Test("start() while running changes nothing: the node is opened once, each frame read once")
        func startTwice() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                defer { source.stop() }
                try source.start()
                try source.start()
                // Each open file that sets its clock shows up once in the handler.
                #expect(testbed.evdevHandler(for: motion.devicePath)?.clockIDs == [EvdevClock.monotonic.rawValue])
                let t0: Int64 = 3_000_000_000
                let stream = dualSenseFrame((1, 2, 3), (4, 5, 6), device: 0, at: t0)
                    + dualSenseFrame((7, 8, 9), (10, 11, 12), device: 4_000, at: t0 + 4_000_000)
                try testbed.writeEvents(stream, to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 2) == [
                    Expected.dualSense((1, 2, 3), (4, 5, 6), at: t0),
                    Expected.dualSense((7, 8, 9), (10, 11, 12), at: t0 + 4_000_000),
                ])
            }
        }
    }
}

@Suite("Life-cycle source mock tests, run under umockdev-wrapper")
struct RestartSourceUnderPreload {
    @Test("the life-cycle source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("Restart")
    }
}
