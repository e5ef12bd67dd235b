// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices
import LibC
import SystemCalls

extension MockDeviceSuites {
    @Suite("Faults: garbage, missing nodes, permissions, bad formats", .enabled(if: UmockdevPreload.isActive))
    struct Faults {
        @Test("garbage in a scale fails with EINVAL naming the file and quoting the text")
        func garbageScale() throws {
            let mpu = MockIIODevice.mpu6050(extraAttributes: ["in_accel_scale": "abc", "sampling_frequency": "fast"])
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect { _ = try device.requireChannel("accel_x").readAttribute("scale", as: Double.self) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == EINVAL && e.path == "/sys/bus/iio/devices/iio:device0/in_accel_scale"
                        && e.description.contains("\"abc\"") && e.description.contains("not a decimal number")
                }
                #expect { _ = try device.readAttribute("sampling_frequency", as: Int.self) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == EINVAL && e.path.hasSuffix("iio:device0/sampling_frequency")
                        && e.description.contains("\"fast\"")
                }
                // The text itself is still readable as text.
                #expect(try device.readAttribute("sampling_frequency") == "fast")
            }
        }

        @Test("a missing attribute fails with ENOENT naming its file")
        func missingAttribute() throws {
            try MockDeviceSuites.withContext([.mpu6050()]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect { _ = try device.readAttribute("in_accel_filter_low_pass_3db_frequency") } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENOENT && e.path == "/sys/bus/iio/devices/iio:device0/in_accel_filter_low_pass_3db_frequency"
                }
            }
        }

        @Test("a missing device node fails buffer creation with ENOENT naming /dev/iio:device0")
        func missingDeviceNode() throws {
            var mpu = MockIIODevice.mpu6050()
            mpu.deviceNumber = nil
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("accel_x").enable()
                #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENOENT && e.path == "/dev/iio:device0" && e.description.contains("device node is missing")
                }
            }
        }

        @Test("an unreadable attribute fails with EACCES naming the file (the wrapper says nothing of udev rules)")
        func unreadableAttribute() throws {
            let mpu = MockIIODevice.mpu6050()
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                try testbed.setPermissions("\(mpu.sysfsDevicePath)/in_accel_scale", 0o000)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { _ = try device.requireChannel("accel_x").readAttribute("scale", as: Double.self) } throws: { error in
                        guard let e = error as? IIOError else { return false }
                        return e.errno == EACCES && e.path == "/sys/bus/iio/devices/iio:device0/in_accel_scale"
                            && !e.description.contains("udev")
                    }
                    // Other attributes stay readable: only the closed file is refused.
                    #expect(try device.readAttribute("sampling_frequency", as: Int.self) == 50)
                }
            }
        }

        @Test("an attribute this user may not write fails with EACCES naming the file")
        func unwritableAttribute() throws {
            let mpu = MockIIODevice.mpu6050()
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                try testbed.setPermissions("\(mpu.sysfsDevicePath)/current_timestamp_clock", 0o444)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { try device.writeAttribute("current_timestamp_clock", "monotonic") } throws: { error in
                        guard let e = error as? IIOError else { return false }
                        return e.errno == EACCES && e.path.hasSuffix("iio:device0/current_timestamp_clock")
                            && !e.description.contains("udev")
                    }
                }
                #expect(testbed.readFile("\(mpu.sysfsPath)/current_timestamp_clock") == "realtime")
            }
        }

        @Test("buffer/enable this user may not write: buffer creation fails with EACCES naming it")
        func unwritableBufferEnable() throws {
            let mpu = MockIIODevice.mpu6050()
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("accel_x").enable()
                try testbed.setPermissions("\(mpu.sysfsDevicePath)/buffer/enable", 0o444)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { error in
                        guard let e = error as? IIOError else { return false }
                        return e.errno == EACCES && e.path == "/sys/bus/iio/devices/iio:device0/buffer/enable"
                            && !e.description.contains("udev")
                    }
                }
            }
        }

        @Test("a device node this user may not open: buffer creation fails with EACCES naming the node")
        func unopenableDeviceNode() throws {
            let mpu = MockIIODevice.mpu6050()
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("accel_x").enable()
                // The sysfs files are writable, as the udev rules make them; the node is not.
                for file in mpu.files { try testbed.setPermissions("\(mpu.sysfsDevicePath)/\(file.path)", 0o666) }
                try testbed.setPermissions(mpu.devicePath, 0o000)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { error in
                        guard let e = error as? IIOError else { return false }
                        return e.errno == EACCES && e.path == "/dev/iio:device0" && !e.description.contains("udev")
                    }
                }
            }
        }

        @Test("garbage in a _type file: the format error names the file and quotes it, and no buffer is made")
        func malformedScanType() throws {
            var mpu = MockIIODevice.mpu6050()
            mpu.channels[0].scan?.format = "garbage"
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                let accelX = try device.requireChannel("accel_x")
                let isTypeError: (any Error) -> Bool = { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == EINVAL && e.path == "/sys/bus/iio/devices/iio:device0/scan_elements/in_accel_x_type"
                        && e.description.contains("\"garbage\"")
                }
                #expect(throws: IIOError.self) { _ = try accelX.format }
                #expect { _ = try accelX.format } throws: { isTypeError($0) }
                // The other channels are fine.
                #expect(try device.requireChannel("accel_y").format.description == "be:s16/16>>0")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                // libiio 0.24 would divide by zero on this format: the wrapper refuses before calling it.
                #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { isTypeError($0) }
                #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/enable") == "0")
            }
        }

        @Test("a well-formed but unsupported _type (24-bit storage) fails with ENOTSUP naming the file")
        func unsupportedScanType() throws {
            var mpu = MockIIODevice.mpu6050()
            mpu.channels[3].scan?.format = "be:s12/24>>0"
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                try device.requireChannel("temp").enable()
                #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENOTSUP && e.path.hasSuffix("scan_elements/in_temp_type") && e.description.contains("24 bits")
                }
            }
        }

        @Test("a buffer with no channel enabled is refused with EINVAL before touching the device")
        func nothingEnabled() throws {
            let mpu = MockIIODevice.mpu6050()
            try MockDeviceSuites.withContext([mpu]) { testbed, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect { _ = try IIOBuffer(device: device, sampleCount: 8) } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == EINVAL && e.description.contains("no scan element is enabled")
                }
                #expect(testbed.readFile("\(mpu.sysfsPath)/buffer/length") == "1")
            }
        }

        @Test("a current trigger that is not in the context fails with ENXIO naming it")
        func unknownCurrentTrigger() throws {
            var mpu = MockIIODevice.mpu6050()
            mpu.currentTrigger = "tiltmaze-hrtimer"
            try MockDeviceSuites.withContext([mpu]) { _, context in
                let device = try context.requireDevice(named: "mpu6050")
                #expect { _ = try device.currentTrigger() } throws: { error in
                    guard let e = error as? IIOError else { return false }
                    return e.errno == ENXIO && e.description.contains("\"tiltmaze-hrtimer\"")
                }
            }
        }
    }
}

@Suite("Fault mock tests, run under umockdev-wrapper")
struct FaultsUnderPreload {
    @Test("the fault mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try MockDeviceSuites.expectPassesUnderPreload("Faults")
    }
}
