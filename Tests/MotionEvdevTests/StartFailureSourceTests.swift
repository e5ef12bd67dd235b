// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices
import MotionCore
import MotionDevices
import Handoff
import SystemCalls

/// `start()` refusing a node: one this user may not open (the udev rules are
/// missing), one that is not a motion sensor. The error names the node and
/// says what to do.
extension EvdevSourceMockSuites {
    @Suite("start() failures: permission, not a motion sensor", .enabled(if: UmockdevPreload.isActive))
    struct StartFailures {
        @Test("a node this user may not open: EvdevError naming /dev/input/event0 and pointing to udev/README.md; opens once allowed")
        func permissionDenied() throws {
            let motion = MockEvdevDevice.dualSenseMotion()
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion)
                defer { source.stop() }
                try testbed.setPermissions(motion.devicePath, 0o000)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { try source.start() } throws: { error in
                        guard let e = error as? EvdevError else { return false }
                        return e.path == "/dev/input/event0" && e.description.contains("/dev/input/event0")
                            && e.description.contains("udev/README.md")
                    }
                }
                #expect(source.failure == nil)
                #expect(source.samples.isEmpty)
                // Given access (as the udev rules do), the same source starts and reads.
                try testbed.setPermissions(motion.devicePath, 0o660)
                try source.start()
                try testbed.writeEvents(dualSenseFrame((1, 2, 3), (4, 5, 6), device: 10, at: 1_000_000_000),
                                        to: motion.devicePath, waitUntilQueued: false)
                #expect(SourceUnderTest.collect(source, count: 1)
                    == [Expected.dualSense((1, 2, 3), (4, 5, 6), at: 1_000_000_000)])
            }
        }

        @Test("the DualSense gamepad node is not a motion sensor: the error names the node and says so")
        func notAMotionSensor() throws {
            let pad = MockEvdevDevice.dualSenseGamepad(eventNumber: 0)
            try EvdevSourceMockSuites.withTestbed([pad]) { _ in
                // Told it is one (a stale or wrong InputNode): the source checks the device itself.
                let source = EvdevMotionSource(
                    node: InputNode(path: "/dev/input/event0", name: pad.name, uniq: pad.uniq, isMotionSensor: true),
                    mount: .identity, reconnectInterval: .milliseconds(20))
                defer { source.stop() }
                #expect { try source.start() } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.path == "/dev/input/event0" && e.description.contains("/dev/input/event0")
                        && e.description.contains("is not a motion sensor") && e.description.contains(pad.name)
                }
                #expect(source.failure == nil)
                #expect(source.interruption == nil)
            }
        }

        @Test("a motion node with only a gyroscope of resolution 0 cannot be scaled: start() says so, naming the node")
        func unscalableGyroOnly() throws {
            let axis = MockAbsInfo(minimum: -32768, maximum: 32768, resolution: 0)
            let gyro = MockEvdevDevice(
                name: "Test Gyroscope", properties: [LinuxInput.INPUT_PROP_ACCELEROMETER],
                codes: [LinuxInput.EV_ABS: [LinuxInput.ABS_RX, LinuxInput.ABS_RY, LinuxInput.ABS_RZ]],
                absInfo: [LinuxInput.ABS_RX: axis, LinuxInput.ABS_RY: axis, LinuxInput.ABS_RZ: axis])
            try EvdevSourceMockSuites.withTestbed([gyro]) { _ in
                let source = SourceUnderTest.make(gyro)
                defer { source.stop() }
                #expect { try source.start() } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.path == "/dev/input/event0" && e.description.contains("Test Gyroscope")
                        && e.description.contains("neither accelerometer axes")
                }
            }
        }
    }
}

@Suite("Start-failure source mock tests, run under umockdev-wrapper")
struct StartFailuresSourceUnderPreload {
    @Test("the start-failure source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("StartFailures")
    }
}
