// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Dispatch
import IIO
import MockDevices
import LibC
import SystemCalls

/// One inv_mpu6050 scan as the driver pushes it with every element enabled:
/// accel x/y/z, temp, anglvel x/y/z as big-endian s16 (14 bytes), 2 bytes of
/// padding, then the little-endian s64 timestamp at byte 16.
func mpu6050Scan(accel: (Int16, Int16, Int16), temp: Int16, gyro: (Int16, Int16, Int16), timestamp: Int64) -> [UInt8] {
    var scan = ScanBytes()
    scan.be16(accel.0); scan.be16(accel.1); scan.be16(accel.2)
    scan.be16(temp)
    scan.be16(gyro.0); scan.be16(gyro.1); scan.be16(gyro.2)
    scan.pad(to: 8)
    scan.le64(timestamp)
    return scan.bytes
}

/// Every element of every scan, decoded.
func decodeAll(_ scans: IIOScans, _ layout: IIOScanLayout) -> [[Int64]] {
    scans.map { scan in (0..<layout.elements.count).map { layout.rawValue(of: $0, in: scan) } }
}

extension MockDeviceSuites {
    @Suite("MPU-6050-like device: one device, data-ready trigger", .enabled(if: UmockdevPreload.isActive))
    struct MPU6050 {
        let mpu = MockIIODevice.mpu6050()

        @Test("the context lists the sensor and its data-ready trigger")
        func listsDeviceAndTrigger() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                #expect(context.isLocal)
                #expect(context.devices.map(\.id).sorted() == ["iio:device0", "trigger0"])
                let device = try context.requireDevice(named: "mpu6050")
                #expect(device.id == "iio:device0")
                #expect(!device.isTrigger)
                #expect(device.label == nil)
                #expect(device.sysfsPath == "/sys/bus/iio/devices/iio:device0")
                #expect(device.devicePath == "/dev/iio:device0")
                #expect(context.triggers.map(\.name) == ["mpu6050-dev0"])
                #expect(context.device(id: "trigger0")?.isTrigger == true)
                #expect(context.device(named: "nonexistent") == nil)
            }
        }

        @Test("channels come in scan order with type, axis, index and format")
        func listsChannels() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                let scanChannels = device.channels.filter(\.isScanElement)
                #expect(scanChannels.map(\.id) == ["accel_x", "accel_y", "accel_z", "temp",
                                                   "anglvel_x", "anglvel_y", "anglvel_z", "timestamp"])
                #expect(scanChannels.map(\.scanIndex) == Array(0...7))
                #expect(scanChannels.map(\.type) == [.accel, .accel, .accel, .temp, .anglvel, .anglvel, .anglvel, .timestamp])
                #expect(scanChannels.map(\.modifier) == [.x, .y, .z, nil, .x, .y, .z, nil])
                #expect(scanChannels.allSatisfy { !$0.isOutput && !$0.isEnabled })
                let accelX = try device.requireChannel("accel_x")
                #expect(try accelX.format == IIOScanFormat(parsing: "be:s16/16>>0"))
                #expect(try device.requireChannel("timestamp").format.description == "le:s64/64>>0")
                #expect(Set(accelX.attributeNames).isSuperset(of: ["raw", "scale", "calibbias"]))
                #expect(accelX.attributePath("scale") == "/sys/bus/iio/devices/iio:device0/in_accel_scale")
            }
        }

        @Test("scales, offsets and rates read as numbers")
        func readsTypedAttributes() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect(try device.requireChannel("accel_y").readAttribute("scale", as: Double.self) == 0.000598)
                #expect(try device.requireChannel("anglvel_z").readAttribute("scale", as: Double.self) == 0.000133090)
                #expect(try device.requireChannel("temp").readAttribute("offset", as: Double.self) == 12420)
                #expect(try device.requireChannel("accel_x").readAttribute("calibbias", as: Int.self) == 0)
                #expect(try device.readAttribute("sampling_frequency", as: Int.self) == 50)
                #expect(try device.readAttribute("sampling_frequency_available") == "10 20 50 100 200 500")
                #expect(try device.readAttribute("current_timestamp_clock") == "realtime")
                #expect(try device.readBufferAttribute("length", as: Int.self) == 1)
                #expect(try device.readBufferAttribute("enable", as: Bool.self) == false)
                #expect(try device.readBufferAttribute("watermark", as: Int.self) == 1)
            }
        }

        @Test("written attributes reach the sysfs files")
        func writesAttributes() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.writeAttribute("current_timestamp_clock", "monotonic")
                try device.writeAttribute("sampling_frequency", 200)
                try device.writeBufferAttribute("watermark", 2)
                try device.requireChannel("accel_z").writeAttribute("calibbias", -12)
                #expect(testbed.readFile("\(mpu.sysfsPath)/current_timestamp_clock") == "monotonic")
                #expect(testbed.readFile("\(mpu.sysfsPath)/sampling_frequency") == "200")
                #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/watermark") == "2")
                #expect(testbed.readFile("\(mpu.sysfsPath)/in_accel_z_calibbias") == "-12")
                #expect(try device.readAttribute("sampling_frequency", as: Int.self) == 200)
            }
        }

        @Test("setting the trigger writes trigger/current_trigger; nil clears it")
        func setsAndClearsTrigger() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                let trigger = try context.requireDevice(named: "mpu6050-dev0")
                #expect(try device.currentTrigger() == nil)
                try device.setTrigger(trigger)
                #expect(testbed.readFile("\(mpu.sysfsPath)/trigger/current_trigger") == "mpu6050-dev0")
                #expect(try device.currentTrigger() == trigger)
                try device.setTrigger(nil)
                #expect(testbed.readFile("\(mpu.sysfsPath)/trigger/current_trigger") == "")
                #expect(try device.currentTrigger() == nil)
            }
        }

        @Test("a sensor cannot be set as a trigger")
        func refusesNonTriggerAsTrigger() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect { try device.setTrigger(device) } throws: { error in
                    (error as? IIOError)?.errno == EINVAL && "\(error)".contains("not a trigger")
                }
            }
        }

        @Test("a buffer writes the en files, length and enable, and puts them back when destroyed")
        func bufferLifecycleInSysfs() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let scanElements = mpu.channels.map(\.id)
                do {
                    let buffer = try IIOBuffer(device: device, sampleCount: 64)
                    #expect(buffer.layout.scanSize == 24)
                    for id in scanElements {
                        #expect(testbed.readFile("\(mpu.sysfsPath)/scan_elements/in_\(id)_en") == "1", "\(id)")
                    }
                    #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/enable") == "1")
                    // libiio 0.24 without the high-speed interface asks for 4 blocks of kernel buffer.
                    #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/length") == "256")
                    withExtendedLifetime(buffer) {}
                }
                #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/enable") == "0")
                for id in scanElements {
                    #expect(testbed.readFile("\(mpu.sysfsPath)/scan_elements/in_\(id)_en") == "0", "\(id)")
                }
            }
        }

        @Test("scans written to the node come out with the exact raw values, in order")
        func exactValuesInOrder() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 16)
                // Values whose bytes a cooked tty would mangle (\n, \r, ^C, XON/XOFF, DEL) prove the pty is raw.
                let expected: [[Int64]] = [
                    [0x0A0D, -2, 16384, 0x0311, 0x1113, 0x7F00, -32768, 1_700_000_000_000_000_001],
                    [-1, 0, 1, -4, 100, -100, 32767, 1_700_000_000_020_000_003],
                    [2, 4, 8, 16, 32, 64, 128, -5],
                ]
                var bytes: [UInt8] = []
                for v in expected {
                    bytes += mpu6050Scan(accel: (Int16(v[0]), Int16(v[1]), Int16(v[2])), temp: Int16(v[3]),
                                         gyro: (Int16(v[4]), Int16(v[5]), Int16(v[6])), timestamp: v[7])
                }
                try testbed.writeScans(bytes, to: mpu.devicePath)
                var got: [[Int64]] = []
                while got.count < expected.count {
                    got += decodeAll(try buffer.read(waitingUpTo: .seconds(5)).received, buffer.layout)
                }
                #expect(got == expected)
            }
        }

        @Test("a scan is returned as soon as it is written, not when the 64-scan buffer is full")
        func scanAvailableAtOnce() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 64)
                for i in 0..<3 {
                    let ts = Int64(1_000_000 * (i + 1))
                    try testbed.writeScans(mpu6050Scan(accel: (Int16(i), 0, 0), temp: 0, gyro: (0, 0, 0), timestamp: ts),
                                           to: mpu.devicePath)
                    let scans = try buffer.read(waitingUpTo: .seconds(5)).received
                    #expect(scans.count == 1)
                    #expect(decodeAll(scans, buffer.layout).first?.last == ts)
                }
            }
        }

        @Test("libiio's blocking refill, by contrast, waits for the whole buffer (here: until its timeout)")
        func blockingRefillWaitsForFullBuffer() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                try context.setTimeout(milliseconds: 300)
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 64)
                try buffer.setBlocking(true)
                try testbed.writeScans(mpu6050Scan(accel: (1, 2, 3), temp: 4, gyro: (5, 6, 7), timestamp: 8), to: mpu.devicePath)
                #expect { try buffer.refill() } throws: { ($0 as? IIOError)?.errno == ETIMEDOUT }
            }
        }

        @Test("a partial scan is kept until the rest of it arrives")
        func partialScanWaitsForRest() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 8)
                let first = mpu6050Scan(accel: (1, 2, 3), temp: 4, gyro: (5, 6, 7), timestamp: 8)
                let second = mpu6050Scan(accel: (-1, -2, -3), temp: -4, gyro: (-5, -6, -7), timestamp: 9)
                try testbed.writeScans(first + second.prefix(10), to: mpu.devicePath)
                let one = try buffer.read(waitingUpTo: .seconds(5)).received
                #expect(decodeAll(one, buffer.layout) == [[1, 2, 3, 4, 5, 6, 7, 8]])
                try testbed.writeScans(Array(second.dropFirst(10)), to: mpu.devicePath)
                let two = try buffer.read(waitingUpTo: .seconds(5)).received
                #expect(decodeAll(two, buffer.layout) == [[-1, -2, -3, -4, -5, -6, -7, 9]])
            }
        }

        @Test("with only accel and timestamp enabled, the timestamp sits at byte 8 of a 16-byte scan")
        func subsetLayout() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for id in ["accel_x", "accel_y", "accel_z", "timestamp"] { try device.requireChannel(id).enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 4)
                #expect(buffer.layout.elements.map(\.offset) == [0, 2, 4, 8])
                #expect(buffer.layout.scanSize == 16)
                #expect(testbed.readFile("\(mpu.sysfsPath)/scan_elements/in_temp_en") == "0")
                var scan = ScanBytes()
                scan.be16(-300); scan.be16(200); scan.be16(16_000)
                scan.pad(to: 8)
                scan.le64(42)
                try testbed.writeScans(scan.bytes, to: mpu.devicePath)
                #expect(decodeAll(try buffer.read(waitingUpTo: .seconds(5)).received, buffer.layout) == [[-300, 200, 16_000, 42]])
            }
        }

        @Test("no scan within the timeout is an outcome, not an error: nothing yet")
        func timesOutWhenTriggerNeverFires() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("accel_x").enable()
                let buffer = try IIOBuffer(device: device, sampleCount: 4)
                guard case .nothingYet = try buffer.read(waitingUpTo: .milliseconds(100)) else {
                    Issue.record("a read with nothing written should report nothing yet")
                    return
                }
                guard case .nothingYet = try buffer.read(waitingUpTo: .zero) else {
                    Issue.record("a read that may not wait should report nothing yet")
                    return
                }
            }
        }

        @Test("cancel() from another thread wakes a waiting read, which reports it; later reads do too")
        func cancelWakesReader() throws {
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("accel_x").enable()
                let buffer = try IIOBuffer(device: device, sampleCount: 4)
                let cancelled = DispatchSemaphore(value: 0)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { [weak buffer] in
                    buffer?.cancel()
                    cancelled.signal()
                }
                // No bound needed on the first read: it waits for ever unless cancel() wakes it.
                guard case .cancelled = try buffer.read(waitingUpTo: nil) else {
                    Issue.record("a cancelled read should report it")
                    return
                }
                cancelled.wait()
                guard case .cancelled = try buffer.read(waitingUpTo: nil) else {
                    Issue.record("a read after cancel() should report it at once")
                    return
                }
                #expect(try IIOBuffer.waitForAny([buffer], timeout: nil) == .cancelled)
            }
        }

        @Test("a device that vanishes mid-capture fails the read with ENODEV instead of hanging")
        func deviceVanishes() throws {
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 4)
                try testbed.writeScans(mpu6050Scan(accel: (1, 2, 3), temp: 4, gyro: (5, 6, 7), timestamp: 8), to: mpu.devicePath)
                #expect(try buffer.read(waitingUpTo: .seconds(5)).received.count == 1)
                testbed.removeDevice(sysfsPath: mpu.sysfsDevicePath)
                #expect { _ = try buffer.read(waitingUpTo: .milliseconds(300)).received } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENODEV && e.description.contains("went away")
                }
            }
        }
    }
}

@Suite("MPU-6050 mock tests, run under umockdev-wrapper")
struct MPU6050UnderPreload {
    @Test("the MPU-6050 mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try MockDeviceSuites.expectPassesUnderPreload("MPU6050")
    }
}
