// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices
import LibC
import SystemCalls

/// A BMI160-like IMU mounted rotated on its board: one device, accel and
/// anglvel as little-endian s16, `in_mount_matrix` (shared by direction, as
/// bmi160 and inv_mpu6050 expose it) and a data-ready trigger.
func rotatedBMI160(mountMatrix: String = "0, 1, 0; -1, 0, 0; 0, 0, 1") -> MockIIODevice {
    let le16 = "le:s16/16>>0"
    return MockIIODevice(
        name: "bmi160",
        channels: [
            .scanElement("anglvel", "x", index: 0, format: le16), .scanElement("anglvel", "y", index: 1, format: le16),
            .scanElement("anglvel", "z", index: 2, format: le16), .scanElement("accel", "x", index: 3, format: le16),
            .scanElement("accel", "y", index: 4, format: le16), .scanElement("accel", "z", index: 5, format: le16),
            .timestamp(index: 6),
        ],
        attributes: [
            "in_mount_matrix": mountMatrix, "in_accel_scale": "0.000598", "in_anglvel_scale": "0.001065",
            "in_accel_sampling_frequency": "100", "in_anglvel_sampling_frequency": "100",
        ],
        trigger: MockIIOTrigger(name: "bmi160-dev0"))
}

extension MockDeviceSuites {
    @Suite("A device mounted rotated: mount matrix", .enabled(if: UmockdevPreload.isActive))
    struct MountMatrix {
        @Test("in_mount_matrix reads as a typed matrix (libiio 0.24 also lists it as a channel \"mount\")")
        func sharedByDirection() throws {
            try MockDeviceSuites.withContext([rotatedBMI160()]) { _, context in
                let device = try context.requireDevice(named: "bmi160")
                let matrix = try device.readAttribute("in_mount_matrix", as: IIOMountMatrix.self)
                #expect(matrix.rows == [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
                let mount = try #require(device.channel(id: "mount"), "libiio 0.24's reading of in_mount_matrix changed")
                #expect(!mount.isScanElement)
                #expect(mount.type == .other("mount"))
                #expect(try mount.readAttribute("matrix", as: IIOMountMatrix.self) == matrix)
            }
        }

        @Test("a device-wide mount_matrix is a device attribute")
        func sharedByAll() throws {
            var accel = MockIIODevice.lsm6ds3Accel()
            accel.attributes["mount_matrix"] = "-1, 0, 0; 0, -1, 0; 0, 0, 1"
            try MockDeviceSuites.withContext([accel]) { _, context in
                let device = try context.requireDevice(named: "lsm6ds3_accel")
                #expect(device.attributeNames.contains("mount_matrix"))
                #expect(try device.readAttribute("mount_matrix", as: IIOMountMatrix.self).rows == [[-1, 0, 0], [0, -1, 0], [0, 0, 1]])
            }
        }

        @Test("in_accel_mount_matrix is an attribute of each accel channel")
        func sharedByType() throws {
            var accel = MockIIODevice.lsm6ds3Accel()
            accel.attributes["in_accel_mount_matrix"] = "0, 0, 1; 0, 1, 0; -1, 0, 0"
            try MockDeviceSuites.withContext([accel]) { _, context in
                let x = try context.requireDevice(named: "lsm6ds3_accel").requireChannel("accel_x")
                #expect(x.attributeNames.contains("mount_matrix"))
                #expect(x.attributePath("mount_matrix") == "/sys/bus/iio/devices/iio:device0/in_accel_mount_matrix")
                #expect(try x.readAttribute("mount_matrix", as: IIOMountMatrix.self).rows[2] == [-1, 0, 0])
            }
        }

        @Test("a garbled mount matrix fails with EINVAL, naming the file and quoting the text")
        func garbledMatrix() throws {
            try MockDeviceSuites.withContext([rotatedBMI160(mountMatrix: "0, 1; -1, 0")]) { _, context in
                let device = try context.requireDevice(named: "bmi160")
                #expect { _ = try device.readAttribute("in_mount_matrix", as: IIOMountMatrix.self) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == EINVAL && e.path == "/sys/bus/iio/devices/iio:device0/in_mount_matrix"
                        && e.description.contains("\"0, 1; -1, 0\"")
                }
            }
        }

        @Test("the rotated device captures with its trigger: sysfs set as the kernel expects, values exact")
        func capturesWithTrigger() throws {
            let bmi = rotatedBMI160()
            try MockDeviceSuites.withContext([bmi]) { testbed, context in
                let device = try context.requireDevice(named: "bmi160")
                try device.setTrigger(try context.requireDevice(named: "bmi160-dev0"))
                try device.writeAttribute("in_accel_sampling_frequency", 200)
                try device.writeBufferAttribute("watermark", 1)
                #expect(testbed.readFile("\(bmi.sysfsPath)/trigger/current_trigger") == "bmi160-dev0")
                #expect(testbed.readFile("\(bmi.sysfsPath)/in_accel_sampling_frequency") == "200")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 10)
                #expect(buffer.layout.elements.map(\.channelID) ==
                        ["anglvel_x", "anglvel_y", "anglvel_z", "accel_x", "accel_y", "accel_z", "timestamp"])
                #expect(buffer.layout.elements.map(\.offset) == [0, 2, 4, 6, 8, 10, 16])
                var scan = ScanBytes()
                for v: Int16 in [1, -1, 2, 16384, -16384, 0] { scan.le16(v) }
                scan.pad(to: 8)
                scan.le64(77)
                try testbed.writeScans(scan.bytes, to: bmi.devicePath)
                #expect(decodeAll(try buffer.read(waitingUpTo: .seconds(5)).received, buffer.layout) == [[1, -1, 2, 16384, -16384, 0, 77]])
            }
        }
    }
}

@Suite("Mount matrix mock tests, run under umockdev-wrapper")
struct MountMatrixUnderPreload {
    @Test("the mount matrix mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try MockDeviceSuites.expectPassesUnderPreload("MountMatrix")
    }
}
