// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices
import LibC
import SystemCalls

/// One st_lsm6dsx scan: x, y, z as little-endian s16, 2 bytes of padding,
/// the little-endian s64 timestamp at byte 8.
func lsm6ds3Scan(_ x: Int16, _ y: Int16, _ z: Int16, timestamp: Int64) -> [UInt8] {
    var scan = ScanBytes()
    scan.le16(x); scan.le16(y); scan.le16(z)
    scan.pad(to: 8)
    scan.le64(timestamp)
    return scan.bytes
}

extension MockDeviceSuites {
    @Suite("LSM6DS3-like chip: accel and gyro as two devices, no trigger", .enabled(if: UmockdevPreload.isActive))
    struct LSM6DS3 {
        let accel = MockIIODevice.lsm6ds3Accel()
        let gyro = MockIIODevice.lsm6ds3Gyro()

        @Test("the chip shows as two devices with their own channels and scales, and no triggers")
        func listsBothHalves() throws {
            try MockDeviceSuites.withContext([accel, gyro]) { _, context in
                #expect(context.devices.compactMap(\.name).sorted() == ["lsm6ds3_accel", "lsm6ds3_gyro"])
                #expect(context.triggers.isEmpty)
                let a = try context.requireDevice(named: "lsm6ds3_accel")
                let g = try context.requireDevice(named: "lsm6ds3_gyro")
                #expect(a.id == "iio:device0" && g.id == "iio:device1")
                #expect(a.channels.filter(\.isScanElement).map(\.id) == ["accel_x", "accel_y", "accel_z", "timestamp"])
                #expect(g.channels.filter(\.isScanElement).map(\.id) == ["anglvel_x", "anglvel_y", "anglvel_z", "timestamp"])
                #expect(try a.requireChannel("accel_x").format.description == "le:s16/16>>0")
                #expect(try a.requireChannel("accel_z").readAttribute("scale", as: Double.self) == 0.000598205)
                #expect(try g.requireChannel("anglvel_y").readAttribute("scale", as: Double.self) == 0.000152716)
                #expect(try a.readAttribute("sampling_frequency_available") == "12.500 26.000 52.000 104.000 208.000 416.000")
                #expect(try a.readAttribute("sampling_frequency", as: Double.self) == 104)
            }
        }

        @Test("asking a FIFO device for its trigger fails with ENOENT naming trigger/current_trigger")
        func noTriggerDirectory() throws {
            try MockDeviceSuites.withContext([accel, gyro]) { _, context in
                let a = try context.requireDevice(named: "lsm6ds3_accel")
                #expect { _ = try a.currentTrigger() } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENOENT && e.path == "/sys/bus/iio/devices/iio:device0/trigger/current_trigger"
                }
            }
        }

        @Test("both halves capture at once, each from its own node, values exact and in order")
        func capturesBothHalves() throws {
            try MockDeviceSuites.withContext([accel, gyro]) { testbed, context in
                let a = try context.requireDevice(named: "lsm6ds3_accel")
                let g = try context.requireDevice(named: "lsm6ds3_gyro")
                for device in [a, g] { for channel in device.channels where channel.isScanElement { channel.enable() } }
                let accelBuffer = try IIOBuffer(device: a, sampleCount: 32)
                let gyroBuffer = try IIOBuffer(device: g, sampleCount: 32)
                #expect(accelBuffer.layout.scanSize == 16 && gyroBuffer.layout.scanSize == 16)
                #expect(testbed.readFile("\(accel.sysfsPath)/buffer/enable") == "1")
                #expect(testbed.readFile("\(gyro.sysfsPath)/buffer/enable") == "1")

                try testbed.writeScans(lsm6ds3Scan(10, -20, 16700, timestamp: 1_000) + lsm6ds3Scan(11, -21, 16701, timestamp: 2_000),
                                       to: accel.devicePath)
                try testbed.writeScans(lsm6ds3Scan(-300, 0, 300, timestamp: 1_500), to: gyro.devicePath)

                var accelValues: [[Int64]] = []
                while accelValues.count < 2 {
                    accelValues += decodeAll(try accelBuffer.read(waitingUpTo: .seconds(5)).received, accelBuffer.layout)
                }
                #expect(accelValues == [[10, -20, 16700, 1_000], [11, -21, 16701, 2_000]])
                #expect(decodeAll(try gyroBuffer.read(waitingUpTo: .seconds(5)).received, gyroBuffer.layout) == [[-300, 0, 300, 1_500]])
            }
        }
    }
}

@Suite("LSM6DS3 mock tests, run under umockdev-wrapper")
struct LSM6DS3UnderPreload {
    @Test("the LSM6DS3 mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try MockDeviceSuites.expectPassesUnderPreload("LSM6DS3")
    }
}
