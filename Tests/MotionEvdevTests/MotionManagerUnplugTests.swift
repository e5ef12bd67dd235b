// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LinuxMotion
import MockDevices
import MotionCore
import MotionDevices
import Synchronization
import Testing
import TestSupport

/// The motion library over a controller that goes away and comes back: its
/// updates neither end nor fail while the controller is away (the manager
/// names the interruption) and carry on when it returns.
///
/// Synchronous, with the handler form (the sequences are fed by the same
/// handler): umockdev's testbed is driven from the thread that made it.
extension EvdevSourceMockSuites.Unplug {
    @Test("LinuxMotion: updates wait through an unplug, the manager naming it, and resume when the controller is back")
    func managerUpdatesResume() throws {
        try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
            let manager = MotionManager(source: SourceUnderTest.make(motion), description: "DualSense", calibrationStore: nil)
            let got = Mutex<[Vector3]>([])
            let ended = Mutex<[MotionError?]>([])
            try manager.startDeviceMotionUpdates(handler: { motion in got.withLock { $0.append(motion.acceleration) } },
                                                 completion: { error in ended.withLock { $0.append(error) } })
            defer { manager.stop() }
            try testbed.writeEvents(dualSenseFrame((1, 2, 8192), (3, 4, 5), device: 100, at: 7_000_000_000),
                                    to: motion.devicePath, waitUntilQueued: false)
            #expect(eventually { got.withLock { $0.count } == 1 })

            try testbed.unplug(motion)
            // While the old node is still going from sysfs the source may first say it "is back … but cannot
            // be opened"; it then settles on "DualSense disconnected".
            #expect(eventually { manager.interruption?.contains("DualSense disconnected") == true },
                    "no interruption naming the controller after unplugging: \(manager.interruption ?? "none")")

            let back = MockEvdevDevice.dualSenseMotion(eventNumber: 3, uniq: motion.uniq!)
            try testbed.add(back)
            #expect(eventually { manager.interruption == nil }, "the interruption did not clear")
            try testbed.writeEvents(dualSenseFrame((11, 12, 8100), (13, 14, 15), device: 900_000, at: 12_000_000_000),
                                    to: back.devicePath, waitUntilQueued: false)
            #expect(eventually { got.withLock { $0.count } == 2 }, "no sample after the controller came back")
            #expect(got.withLock { $0 } == [Expected.dualSense((1, 2, 8192), (3, 4, 5), at: 0).acceleration,
                                            Expected.dualSense((11, 12, 8100), (13, 14, 15), at: 0).acceleration])
            #expect(ended.withLock { $0 }.isEmpty, "the updates ended: \(ended.withLock { $0 })")
        }
    }
}
