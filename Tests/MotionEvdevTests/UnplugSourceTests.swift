// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import TestSupport
import MotionCore
import MotionDevices

/// A controller going away mid-stream (Bluetooth range, batteries) and
/// coming back under another event number: the source reports an
/// interruption, not a failure, and picks it up again by its `uniq`.
extension EvdevSourceMockSuites {
    @Suite("Unplugged mid-stream and back", .enabled(if: UmockdevPreload.isActive))
    struct Unplug {
        let motion = MockEvdevDevice.dualSenseMotion()

        /// Writes one DualSense frame stamped `t0` to `node` and expects exactly that sample from `source`.
        func expectFrameArrives(at t0: Int64, from node: MockEvdevDevice, to source: EvdevMotionSource, in testbed: Testbed) throws {
            try testbed.writeEvents(dualSenseFrame((1, 2, 3), (4, 5, 6), device: 7, at: t0), to: node.devicePath,
                                    waitUntilQueued: false)
            #expect(SourceUnderTest.collect(source, count: 1) == [Expected.dualSense((1, 2, 3), (4, 5, 6), at: t0)])
        }

        /// Unplugs the running source's node and plugs back a node of the same
        /// controller (event3) that has no axes at all; returns it once the
        /// source has noticed it.
        func comesBackUnusable(_ source: EvdevMotionSource, in testbed: Testbed) throws -> MockEvdevDevice {
            try testbed.unplug(motion)
            #expect(SourceUnderTest.waitUntil { source.interruption != nil })
            let broken = MockEvdevDevice(eventNumber: 3, name: motion.name, uniq: motion.uniq,
                                         properties: [LinuxInput.INPUT_PROP_ACCELEROMETER],
                                         codes: [LinuxInput.EV_MSC: [LinuxInput.MSC_TIMESTAMP]])
            try testbed.add(broken)
            // The node's sysfs device can be seen before its /dev node is
            // there (umockdev makes them in that order, as the kernel and
            // udev do): the source may first say it cannot open event3 at
            // all, then, on its next look, why the node is no use.
            #expect(SourceUnderTest.waitUntil { source.interruption?.contains("neither accelerometer axes") == true },
                    "\(source.interruption ?? "")")
            return broken
        }

        @Test("unplugged: an interruption naming it, no failure; back as event3: interruption cleared, one reconnection, samples flow; stop() is prompt")
        func unplugAndComeBack() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                let t0: Int64 = 7_000_000_000
                let before = dualSenseFrame((1, 2, 8192), (3, 4, 5), device: 100, at: t0)
                    + dualSenseFrame((6, 7, 8190), (8, 9, 10), device: 4_100, at: t0 + 4_000_000)
                try testbed.writeEvents(before, to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 2) == [
                    Expected.dualSense((1, 2, 8192), (3, 4, 5), at: t0),
                    Expected.dualSense((6, 7, 8190), (8, 9, 10), at: t0 + 4_000_000),
                ])
                #expect(source.interruption == nil)

                try testbed.unplug(motion)
                #expect(SourceUnderTest.waitUntil { source.interruption != nil }, "no interruption after unplugging")
                let interruption = try #require(source.interruption)
                #expect(interruption.contains("DualSense disconnected"), "\(interruption)")
                #expect(source.failure == nil)
                #expect(source.reconnectionCount == 0)
                // Still waiting a while later: the source does not give up.
                SourceUnderTest.sleep(milliseconds: 100)
                #expect(source.interruption != nil)
                #expect(source.failure == nil)

                let back = MockEvdevDevice.dualSenseMotion(eventNumber: 3, uniq: motion.uniq!)
                try testbed.add(back)
                #expect(SensorDiscovery.inputNodes().filter(\.isMotionSensor)
                    == [InputNode(path: "/dev/input/event3", name: motion.name, uniq: motion.uniq, isMotionSensor: true)])
                #expect(SourceUnderTest.waitUntil { source.interruption == nil }, "the interruption did not clear")
                #expect(source.reconnectionCount == 1)
                #expect(source.failure == nil)

                // A new connection: the device clock is anchored afresh.
                let t1: Int64 = 12_000_000_000
                let after = dualSenseFrame((11, 12, 8100), (13, 14, 15), device: 900_000, at: t1)
                    + dualSenseFrame((16, 17, 8101), (18, 19, 20), device: 904_000, at: t1 + 4_200_000)
                try testbed.writeEvents(after, to: back.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 2) == [
                    Expected.dualSense((11, 12, 8100), (13, 14, 15), at: t1),
                    Expected.dualSense((16, 17, 8101), (18, 19, 20), at: t1 + 4_000_000),
                ])
                #expect(source.reconnectionCount == 1)

                #expect(returns { source.stop() }, "stop() did not return: it hung")
            }
        }

        @Test("another controller's motion node (other uniq) appearing is not taken for it")
        func otherControllerIgnored() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                try testbed.unplug(motion)
                #expect(SourceUnderTest.waitUntil { source.interruption != nil })
                try testbed.add(MockEvdevDevice.dualSenseMotion(eventNumber: 4, uniq: "11:22:33:44:55:66"))
                SourceUnderTest.sleep(milliseconds: 200)
                #expect(source.interruption != nil)
                #expect(source.reconnectionCount == 0)
                #expect(source.failure == nil)
            }
        }

        @Test("back but unusable: the interruption names the node and why; a good node of the same controller is still taken")
        func backButUnusable() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                _ = try comesBackUnusable(source, in: testbed)
                let interruption = try #require(source.interruption)
                #expect(interruption.contains("DualSense is back as /dev/input/event3 but cannot be opened"), "\(interruption)")
                #expect(interruption.contains("neither accelerometer axes"), "\(interruption)")
                #expect(source.reconnectionCount == 0)
                #expect(source.failure == nil)

                let good = MockEvdevDevice.dualSenseMotion(eventNumber: 5, uniq: motion.uniq!)
                try testbed.add(good)
                #expect(SourceUnderTest.waitUntil { source.interruption == nil }, "\(source.interruption ?? "")")
                #expect(source.reconnectionCount == 1)
                try expectFrameArrives(at: 30_000_000_000, from: good, to: source, in: testbed)
            }
        }

        @Test("an unusable node that goes away again: the interruption no longer says the controller is back")
        func unusableNodeGoesAgain() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                let broken = try comesBackUnusable(source, in: testbed)
                try testbed.unplug(broken)
                // Waited for, not slept on: a loaded machine's sensor thread may take longer than any fixed pause.
                #expect(SourceUnderTest.waitUntil { source.interruption.map { !$0.contains("is back") } ?? false },
                        "\(source.interruption ?? "no interruption")")
                let interruption = try #require(source.interruption)
                #expect(source.reconnectionCount == 0)
                #expect(!interruption.contains("is back"), "\(interruption)")
                #expect(interruption.contains("DualSense disconnected"), "\(interruption)")
            }
        }

        @Test("stop() and start() after a reconnection open the controller where it is now")
        func restartAfterReconnection() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                defer { source.stop() }
                try testbed.unplug(motion)
                #expect(SourceUnderTest.waitUntil { source.interruption != nil })
                let back = MockEvdevDevice.dualSenseMotion(eventNumber: 3, uniq: motion.uniq!)
                try testbed.add(back)
                #expect(SourceUnderTest.waitUntil { source.interruption == nil })
                #expect(source.reconnectionCount == 1)
                source.stop()

                try source.start()
                try expectFrameArrives(at: 40_000_000_000, from: back, to: source, in: testbed)
            }
        }

        @Test("stop() while waiting for the controller returns promptly")
        func stopWhileInterrupted() throws {
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                try source.start()
                try testbed.unplug(motion)
                #expect(SourceUnderTest.waitUntil { source.interruption != nil })
                #expect(returns { source.stop() }, "stop() did not return: it hung")
            }
        }
    }
}

@Suite("Unplug source mock tests, run under umockdev-wrapper")
struct UnplugSourceUnderPreload {
    @Test("the unplug source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("Unplug")
    }
}
