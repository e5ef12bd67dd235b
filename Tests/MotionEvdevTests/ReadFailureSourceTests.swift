// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import TestSupport
import MotionCore
import MotionDevices
import LibC
import Handoff

/// A read error that is not the device going away (here a torn
/// `input_event`, which libevdev refuses with EINVAL) ends the source with a
/// `failure`, not an interruption.
extension EvdevSourceMockSuites {
    @Suite("Read failures other than unplugging", .enabled(if: UmockdevPreload.isActive))
    struct ReadFailure {
        let motion = MockEvdevDevice.dualSenseMotion()

        /// Starts a source on the mock DualSense, sees its first frame (at
        /// `t0`) arrive, then runs `body`; the source is stopped after.
        func readingFirstFrame(_ body: (Testbed, EvdevMotionSource, Int64) throws -> Void) throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                defer { source.stop() }
                try source.start()
                let t0: Int64 = 8_000_000_000
                try testbed.writeEvents(dualSenseFrame((1, 2, 3), (4, 5, 6), device: 0, at: t0), to: motion.devicePath,
                                        waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((1, 2, 3), (4, 5, 6), at: t0)])
                try body(testbed, source, t0)
            }
        }

        @Test("a torn input_event ends in a failure naming the node (no interruption); stop() then start() recovers")
        func tornRecord() throws {
            try readingFirstFrame { testbed, source, t0 in

                // 10 bytes: less than one 24-byte record.
                try testbed.write([UInt8](repeating: 0, count: 10), to: motion.devicePath)
                #expect(SourceUnderTest.waitUntil { source.failure != nil }, "no failure after a torn record")
                let failure = try #require(source.failure)
                #expect(failure.contains("/dev/input/event0"))
                #expect(failure.contains("read events"))
                #expect(source.interruption == nil)
                #expect(source.samples.isEmpty)

                #expect(returns { source.stop() }, "stop() did not return: it hung")
                try source.start()
                #expect(source.failure == nil)
                let t1 = t0 + 100_000_000
                try testbed.writeEvents(dualSenseFrame((7, 8, 9), (10, 11, 12), device: 100_000, at: t1), to: motion.devicePath,
                                        waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((7, 8, 9), (10, 11, 12), at: t1)])
            }
        }

        @Test("a read that fails as on a flaky link (EIO) loses one sample, counted in the source's health (what play --stats and doctor print), and reading goes on")
        func lostSampleCounted() throws {
            try readingFirstFrame { testbed, source, t0 in
                #expect(source.health.failedSamples == 0)

                EvdevFaults.arm(errno: EIO, next: 1)
                let t1 = t0 + 100_000_000
                try testbed.writeEvents(dualSenseFrame((7, 8, 9), (10, 11, 12), device: 100_000, at: t1), to: motion.devicePath,
                                        waitUntilQueued: false)
                #expect(SourceUnderTest.waitUntil { source.health.failedSamples == 1 }, "the failed read was not counted: \(source.health)")
                #expect(EvdevFaults.injected == 1)
                let health = source.health
                #expect(health.failure == nil && health.interruption == nil, "one failed read ends nothing: \(health)")
                #expect(source.failedSampleCount == 1 && source.retryCount == 0, "what --stats and doctor's live line read")
                // The events stay in the node: the next read takes them.
                #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((7, 8, 9), (10, 11, 12), at: t1)])
            }
        }
    }
}

@Suite("Read-failure source mock tests, run under umockdev-wrapper")
struct ReadFailureSourceUnderPreload {
    @Test("the read-failure source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("ReadFailure")
    }
}
