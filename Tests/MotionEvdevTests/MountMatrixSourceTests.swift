// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import MotionCore
import MotionDevices
import LibC

/// Device axes to board axes: an explicit matrix; udev's `ACCEL_MOUNT_MATRIX`,
/// which wins over any default; else the controller profile's matrix (checked
/// as "the profile's", not its numbers, which belong to the profile's tests).
extension EvdevSourceMockSuites {
    @Suite("Mount matrix on evdev samples", .enabled(if: UmockdevPreload.isActive))
    struct Mount {
        let motion = MockEvdevDevice.dualSenseMotion()

        @Test("an explicit mount matrix turns both accelerometer and gyroscope axes into the board's")
        func explicitMatrix() throws {
            let quarterTurn = try #require(MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion, mount: quarterTurn)
                try source.start()
                defer { source.stop() }
                try testbed.writeEvents(dualSenseFrame((100, 200, 8192), (1024, -512, 64), device: 10, at: 1_000_000_000),
                                        to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 1)
                let a = Expected.acceleration((100, 200, 8192), perG: 8192)
                let w = Expected.rotationRate((1024, -512, 64), perDegreePerSecond: 1024)
                #expect(got == [MotionSample(timestamp: 1_000_000_000, acceleration: Vector3(a.y, -a.x, a.z),
                                             rotationRate: Vector3(w.y, -w.x, w.z), fields: [.acceleration, .rotationRate])])
            }
        }

        @Test("with no matrix given, udev's ACCEL_MOUNT_MATRIX for the node (c13:64) is applied")
        func udevMatrix() throws {
            let udev = "/tmp/tiltmaze-evdev-udev-\(getpid())"
            #expect(system("mkdir -p '\(udev)'") == 0)
            defer { _ = system("rm -rf '\(udev)'") }
            // /dev/input/event0 is character device 13:64.
            #expect(system("printf 'E:ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1\\n' > '\(udev)/c13:64'") == 0)
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                #expect(UdevDatabase.properties(ofCharacterDevice: motion.devicePath, directory: udev)["ACCEL_MOUNT_MATRIX"] != nil)
                let source = SourceUnderTest.make(motion, mount: nil, udevDirectory: udev)
                try source.start()
                defer { source.stop() }
                try testbed.writeEvents(dualSenseFrame((100, 200, 8192), (1024, -512, 64), device: 10, at: 1_000_000_000),
                                        to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 1)
                let a = Expected.acceleration((100, 200, 8192), perG: 8192)
                let w = Expected.rotationRate((1024, -512, 64), perDegreePerSecond: 1024)
                #expect(got == [MotionSample(timestamp: 1_000_000_000, acceleration: Vector3(-a.x, -a.y, a.z),
                                             rotationRate: Vector3(-w.x, -w.y, w.z), fields: [.acceleration, .rotationRate])])
            }
        }

        @Test("with no matrix given and no udev record, the controller profile's matrix is applied")
        func profileDefault() throws {
            let udev = "/tmp/tiltmaze-evdev-udev-empty-\(getpid())"
            #expect(system("mkdir -p '\(udev)'") == 0)
            defer { _ = system("rm -rf '\(udev)'") }
            try EvdevSourceMockSuites.withTestbed([motion]) { testbed in
                let source = SourceUnderTest.make(motion, mount: nil, udevDirectory: udev)
                try source.start()
                defer { source.stop() }
                try testbed.writeEvents(dualSenseFrame((100, 200, 8192), (1024, -512, 64), device: 10, at: 1_000_000_000),
                                        to: motion.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 1)
                // Whatever the owner settles the DualSense convention to: the profile's own matrix.
                let m = source.profile.mount
                #expect(got == [MotionSample(timestamp: 1_000_000_000,
                                             acceleration: m.apply(Expected.acceleration((100, 200, 8192), perG: 8192)),
                                             rotationRate: m.apply(Expected.rotationRate((1024, -512, 64), perDegreePerSecond: 1024)),
                                             fields: [.acceleration, .rotationRate])])
            }
        }
    }
}

@Suite("Mount-matrix source mock tests, run under umockdev-wrapper")
struct MountSourceUnderPreload {
    @Test("the mount-matrix source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("Mount")
    }
}
