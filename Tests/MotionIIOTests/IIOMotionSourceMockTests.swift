// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Diagnostics
import IIO
import MotionCore
import MotionDevices
import MockDevices
import Realtime
import TestSupport
import LibC
import Handoff

/// The IIO motion source against umockdev testbeds: the real libiio local
/// backend on fake sysfs and /dev nodes. Serialized (one testbed per process
/// at a time), and run only under the preload; `UnderPreload` below re-runs
/// this binary that way so a plain `swift test` covers it.
@Suite("IIO motion source on mock devices", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIOMotionSourceMockTests {
    /// Runs `body` with a testbed holding `devices` and the IMUs found in a fresh context.
    func withIMUs(_ devices: [MockIIODevice], _ body: (Testbed, [IIOIMU]) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            for d in devices { try testbed.add(d) }
            let context = try IIOContext()
            try body(testbed, IIOIMU.find(in: context))
        }
    }

    /// Waits until `count` samples are in the ring (or the hang bound passes) and returns them.
    func collect(_ source: IIOMotionSource, count: Int) -> [MotionSample] {
        var got: [MotionSample] = []
        _ = eventually {
            source.samples.drain { got.append($0) }
            return got.count >= count
        }
        return got
    }

    /// An MPU-6050 scan with temp disabled: accel, anglvel (be s16), padding, timestamp.
    func mpuScan(_ a: (Int16, Int16, Int16), _ g: (Int16, Int16, Int16), _ t: Int64) -> [UInt8] {
        var s = ScanBytes()
        s.be16(a.0); s.be16(a.1); s.be16(a.2)
        s.be16(g.0); s.be16(g.1); s.be16(g.2)
        s.pad(to: 8)
        s.le64(t)
        return s.bytes
    }

    @Test("an IMU's calibration identity is its name and bus path, not its iio:deviceN number")
    func identity() throws {
        try withIMUs([MockIIODevice.mpu6050()]) { _, imus in
            let source = IIOMotionSource(imu: imus[0], rate: 200)
            #expect(source.calibrationIdentity == "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0068")
        }
    }

    @Test("MPU-6050: data-ready trigger, rate, monotonic clock and scan elements set; exact SI values in order; all restored")
    func mpu6050() throws {
        let mpu = MockIIODevice.mpu6050()
        try withIMUs([mpu]) { testbed, imus in
            #expect(imus.map(\.name) == ["mpu6050"])
            let dir = "/sys/bus/iio/devices/iio:device0"
            let before = ["trigger/current_trigger", "sampling_frequency", "current_timestamp_clock", "buffer/enable"]
                .map { testbed.readFile("\(dir)/\($0)") }
            let source = IIOMotionSource(imu: imus[0], rate: 200)
            try source.start()
            #expect(testbed.readFile("\(dir)/trigger/current_trigger") == "mpu6050-dev0")
            #expect(testbed.readFile("\(dir)/sampling_frequency") == "200")
            #expect(testbed.readFile("\(dir)/current_timestamp_clock") == "monotonic")
            #expect(testbed.readFile("\(dir)/buffer/enable") == "1")
            #expect(testbed.readFile("\(dir)/scan_elements/in_accel_x_en") == "1")
            #expect(testbed.readFile("\(dir)/scan_elements/in_anglvel_z_en") == "1")
            #expect(testbed.readFile("\(dir)/scan_elements/in_timestamp_en") == "1")
            #expect(testbed.readFile("\(dir)/scan_elements/in_temp_en") == "0")
            #expect(source.rate == 200)

            try testbed.writeScans(mpuScan((1000, -2000, 16384), (100, -200, 300), 5_000_000_000), to: "/dev/iio:device0")
            try testbed.writeScans(mpuScan((-1, 0, 1), (0, 0, -32768), 5_005_000_000), to: "/dev/iio:device0")
            let got = collect(source, count: 2)
            source.stop()

            try #require(got.count == 2)
            #expect(got[0].timestamp == 5_000_000_000)
            #expect(got[1].timestamp == 5_005_000_000)
            #expect(got[0].acceleration == Vector3(1000 * 0.000598, -2000 * 0.000598, 16384 * 0.000598))
            #expect(got[0].rotationRate == Vector3(100 * 0.000133090, -200 * 0.000133090, 300 * 0.000133090))
            #expect(got[1].acceleration == Vector3(-1 * 0.000598, 0, 1 * 0.000598))
            #expect(got[1].rotationRate == Vector3(0, 0, -32768 * 0.000133090))
            #expect(got.allSatisfy { $0.fields == [.acceleration, .rotationRate] })

            let after = ["trigger/current_trigger", "sampling_frequency", "current_timestamp_clock", "buffer/enable"]
                .map { testbed.readFile("\(dir)/\($0)") }
            #expect(after == before)
        }
    }

    @Test("LSM6DS3 split over two devices is one IMU, without a trigger; each half's samples carry its own field")
    func lsm6ds3() throws {
        try withIMUs([.lsm6ds3Accel(), .lsm6ds3Gyro()]) { testbed, imus in
            try #require(imus.count == 1)
            #expect(imus[0].name == "lsm6ds3")
            #expect(imus[0].devices.map(\.id) == ["iio:device0", "iio:device1"])
            // A watermark left by someone else: libiio 0.24 would raise it to
            // its 64 scans (a reader woken every 64 scans); the source makes it 1.
            try testbed.writeFile("/sys/bus/iio/devices/iio:device0/buffer/watermark", "3\n")
            let source = IIOMotionSource(imu: imus[0], rate: 200)
            try source.start()
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/watermark") == "1")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "1")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "208")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device1/sampling_frequency") == "208")
            #expect(source.rate == 208)

            var accel = ScanBytes()
            accel.le16(100); accel.le16(200); accel.le16(-300); accel.pad(to: 8); accel.le64(7_000)
            var gyro = ScanBytes()
            gyro.le16(-1); gyro.le16(2); gyro.le16(3); gyro.pad(to: 8); gyro.le64(7_500)
            try testbed.writeScans(accel.bytes, to: "/dev/iio:device0")
            try testbed.writeScans(gyro.bytes, to: "/dev/iio:device1")
            let got = collect(source, count: 2).sorted { $0.timestamp < $1.timestamp }
            source.stop()

            try #require(got.count == 2)
            #expect(got[0] == MotionSample(timestamp: 7_000, acceleration: Vector3(100 * 0.000598205, 200 * 0.000598205, -300 * 0.000598205),
                                           fields: .acceleration))
            #expect(got[1] == MotionSample(timestamp: 7_500, rotationRate: Vector3(-1 * 0.000152716, 2 * 0.000152716, 3 * 0.000152716),
                                           fields: .rotationRate))
            // Put back as the driver wrote it.
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "104.000000")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/watermark") == "3")
        }
    }

    @Test("a device's mount matrix turns its axes into the board's")
    func mountMatrix() throws {
        let mpu = MockIIODevice.mpu6050(extraAttributes: ["mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        try withIMUs([mpu]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0])
            try source.start()
            try testbed.writeScans(mpuScan((1000, 0, 0), (0, 500, 0), 1), to: "/dev/iio:device0")
            let got = collect(source, count: 1)
            source.stop()
            try #require(got.count == 1)
            #expect(got[0].acceleration == Vector3(0, -1000 * 0.000598, 0))
            #expect(got[0].rotationRate == Vector3(500 * 0.000133090, 0, 0))
        }
    }

    @Test("udev's ACCEL_MOUNT_MATRIX for the node wins over the driver's mount matrix")
    func udevMountMatrixWins() throws {
        let udev = "/tmp/tiltmaze-udev-\(getpid())"
        #expect(system("mkdir -p '\(udev)'") == 0)
        defer { _ = system("rm -rf '\(udev)'") }
        // The mock node is character device 241:0.
        #expect(system("printf 'S:iio/accel\\nE:ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1\\nE:OTHER=x\\n' > '\(udev)/c241:0'") == 0)
        let mpu = MockIIODevice.mpu6050(extraAttributes: ["mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        try withIMUs([mpu]) { testbed, imus in
            #expect(UdevDatabase.properties(ofCharacterDevice: "/dev/iio:device0", directory: udev)["OTHER"] == "x")
            let source = IIOMotionSource(imu: imus[0], udevDirectory: udev)
            try source.start()
            try testbed.writeScans(mpuScan((1000, 0, 0), (0, 0, 0), 1), to: "/dev/iio:device0")
            let got = collect(source, count: 1)
            source.stop()
            try #require(got.count == 1)
            #expect(got[0].acceleration == Vector3(-1000 * 0.000598, 0, 0))
            // `devices` shows the matrix the game turns samples by, and says where it is from.
            let lines = DeviceListing.lines(for: SensorSelection.examine(), udevDirectory: udev)
            #expect(lines.contains("    mount matrix: -1, 0, 0; 0, -1, 0; 0, 0, 1 (udev ACCEL_MOUNT_MATRIX of /dev/iio:device0)"),
                    "\(lines.joined(separator: "\n"))")
            #expect(!DeviceListing.lines(for: SensorSelection.examine()).joined().contains("udev ACCEL_MOUNT_MATRIX"),
                    "without udev's record, the driver's matrix")
        }
    }

    /// An MPU-6050 whose raw values read as given (the driver's `in_*_raw`).
    func mpu6050(raw: [String: Int], mount: String? = nil) -> MockIIODevice {
        var mpu = MockIIODevice.mpu6050(extraAttributes: mount.map { ["in_accel_mount_matrix": $0] } ?? [:])
        for i in mpu.channels.indices { if let value = raw[mpu.channels[i].id] { mpu.channels[i].attributes["raw"] = "\(value)" } }
        return mpu
    }

    @Test("a data-ready trigger that never fires (INT not wired): polled instead, raw × scale through the mount matrix, saying why; all put back")
    func silentTriggerPolled() throws {
        let mpu = mpu6050(raw: ["accel_x": 1000, "accel_y": -2000, "accel_z": 16384, "anglvel_x": 100, "anglvel_y": -200, "anglvel_z": 300],
                          mount: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        try withIMUs([mpu]) { testbed, imus in
            let dir = "/sys/bus/iio/devices/iio:device0"
            let attributes = ["trigger/current_trigger", "sampling_frequency", "current_timestamp_clock", "buffer/enable"]
            let before = attributes.map { testbed.readFile("\(dir)/\($0)") }
            let source = IIOMotionSource(imu: imus[0], rate: 100)
            try source.start()
            #expect(source.notice == nil)
            let got = collect(source, count: 5)
            try #require(got.count >= 5)
            #expect(source.notice == "the data-ready interrupt never fired (is INT wired to GPIO4, or `int_pin=` set?): polling instead")
            #expect(testbed.readFile("\(dir)/buffer/enable") == "0", "a driver refuses raw reads while its buffer runs")
            let mount = MountMatrix(Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1))
            #expect(got.allSatisfy { $0.acceleration == mount.apply(Vector3(1000 * 0.000598, -2000 * 0.000598, 16384 * 0.000598)) })
            #expect(got.allSatisfy { $0.rotationRate == mount.apply(Vector3(100 * 0.000133090, -200 * 0.000133090, 300 * 0.000133090)) })
            #expect(zip(got.dropFirst(), got).allSatisfy { $0.timestamp > $1.timestamp })
            source.stop()
            #expect(source.failure == nil)
            #expect(attributes.map { testbed.readFile("\(dir)/\($0)") } == before)
        }
    }

    @Test("a trigger that stops after five scans (a loose INT wire) hands over to polling after its bound: the scans, then polled samples")
    func triggerStopsMidway() throws {
        try withIMUs([mpu6050(raw: ["accel_z": 16384])]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], rate: 100)
            try source.start()
            defer { source.stop() }
            // Stamped just before now, so the polled samples that follow are later still.
            let start = MonotonicClock.now() - 100_000_000
            for k in 0 ..< 5 {
                try testbed.writeScans(mpuScan((Int16(k), 0, 0), (0, 0, 0), start + Int64(k) * 10_000_000), to: "/dev/iio:device0")
            }
            let got = collect(source, count: 10)
            try #require(got.count >= 10)
            #expect(got.prefix(5).map(\.timestamp) == (0 ..< 5).map { start + Int64($0) * 10_000_000 })
            #expect(got[5...].allSatisfy { $0.acceleration == Vector3(0, 0, 16384 * 0.000598) })
            // The hand-over waited its bound of silence (a second at 100 Hz), not less.
            #expect(got[5].timestamp - got[4].timestamp >= 1_000_000_000)
            #expect(source.notice == "the data-ready interrupt stopped firing (is the INT wire loose?): polling instead")
            #expect(source.failure == nil)
        }
    }

    @Test("a trigger that never fires on a device whose raw values cannot be read either ends in a clear message, not a hang")
    func noData() throws {
        var mpu = MockIIODevice.mpu6050()
        for i in mpu.channels.indices { mpu.channels[i].attributes["raw"] = nil }
        try withIMUs([mpu]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], noDataTimeout: .milliseconds(300))
            try source.start()
            #expect(eventually { source.failure != nil })
            source.stop()
            let failure = try #require(source.failure)
            #expect(failure.contains("no data from mpu6050 on iio:device0"))
            #expect(failure.contains("trigger mpu6050-dev0"))
            #expect(source.notice == nil)
        }
    }

    @Test("the silence bound: a second, or ten sample periods when that is longer")
    func silenceBound() {
        #expect(IIOMotionSource.silenceBound(rate: 200) == .seconds(1))
        #expect(IIOMotionSource.silenceBound(rate: 10) == .seconds(1))
        #expect(IIOMotionSource.silenceBound(rate: 4) == .milliseconds(2500))
    }

    @Test("the device vanishing mid-capture ends in a clear message, not a hang")
    func deviceVanishes() throws {
        let mpu = MockIIODevice.mpu6050()
        try withIMUs([mpu]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], noDataTimeout: .seconds(5))
            try source.start()
            try testbed.writeScans(mpuScan((1, 2, 3), (4, 5, 6), 10), to: "/dev/iio:device0")
            #expect(collect(source, count: 1).count == 1)
            testbed.removeDevice(sysfsPath: mpu.sysfsDevicePath)
            #expect(eventually { source.failure != nil })
            source.stop()
            let failure = try #require(source.failure)
            #expect(failure.contains("iio:device0"))
            #expect(failure.contains("is gone"))
        }
    }

    @Test("stop() wakes the capture thread at once: it does not wait for the next look at a silent device")
    func stopIsPrompt() throws {
        try withIMUs([.mpu6050()]) { _, imus in
            // Nothing is written and the thread looks at the device only once an hour: only
            // the buffers' cancellation can end its wait.
            let source = IIOMotionSource(imu: imus[0], noDataTimeout: .seconds(7200), checkInterval: .seconds(3600))
            try source.start()
            MonotonicClock.sleep(until: MonotonicClock.now() + 50_000_000)   // let it settle into the wait
            #expect(returns { source.stop() }, "stop() did not return: it hung")
            #expect(source.failure == nil)
        }
    }

    @Test("a node this user may not open: start() fails naming it and pointing to udev/README.md, and nothing stays changed")
    func permissionAdvice() throws {
        let mpu = MockIIODevice.mpu6050()
        try withIMUs([mpu]) { testbed, imus in
            for file in mpu.files { try testbed.setPermissions("\(mpu.sysfsDevicePath)/\(file.path)", 0o666) }
            try testbed.setPermissions(mpu.devicePath, 0o000)
            let source = IIOMotionSource(imu: imus[0])
            try UnprivilegedFileAccess.run(in: testbed) { () throws in
                #expect { try source.start() } throws: { error in
                    let text = "\(error)"
                    return text.hasPrefix("/dev/iio:device0: ") && text.contains("udev/README.md")
                }
            }
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/current_timestamp_clock") == "realtime")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
        }
    }

    /// An MPU-6050-like chip whose driver has no data-ready trigger (as bmi270):
    /// it takes a trigger but offers none of its own.
    func triggerlessChip() -> MockIIODevice {
        var device = MockIIODevice.mpu6050()
        device.name = "bmi270"
        device.trigger = nil
        return device
    }

    @Test("with no data-ready trigger, an hrtimer trigger is made through configfs, used, and removed on stop")
    func hrtimerCreated() throws {
        let configfs = "/tmp/tiltmaze-configfs-\(getpid())"
        let hrtimer = HrtimerTrigger.hrtimerDirectory(configfsRoot: configfs)
        #expect(system("mkdir -p '\(hrtimer)'") == 0)
        defer { _ = system("rm -rf '\(configfs)'") }
        try withIMUs([triggerlessChip()]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], configfsRoot: configfs)
            try source.start()
            #expect(access(hrtimer + "/tiltmaze", F_OK) == 0)
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "tiltmaze")
            source.stop()
            #expect(access(hrtimer + "/tiltmaze", F_OK) != 0)
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "")
        }
    }

    @Test("an hrtimer trigger made at boot is used at the game's rate, and its own rate put back on stop")
    func existingHrtimerPaced() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(triggerlessChip())
            try testbed.add(MockIIOTrigger(id: "trigger3", name: "tiltmaze", attributes: ["sampling_frequency": "100"]))
            let imus = IIOIMU.find(in: try IIOContext())
            let source = IIOMotionSource(imu: imus[0], rate: 200, configfsRoot: "/nonexistent-configfs")
            try source.start()
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "tiltmaze")
            #expect(testbed.readFile("/sys/bus/iio/devices/trigger3/sampling_frequency") == "200")
            source.stop()
            #expect(testbed.readFile("/sys/bus/iio/devices/trigger3/sampling_frequency") == "100")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "")
        }
    }

    @Test("BNO055 (its driver's channel layout): one IMU; capture on an hrtimer enables the accel, magn and anglvel axes and the timestamp; SI values from its scales, the field in µT despite the driver's gauss")
    func bno055() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.bno055())
            try testbed.add(MockIIOTrigger(id: "trigger1", name: "tiltmaze", attributes: ["sampling_frequency": "100"]))
            let imus = IIOIMU.find(in: try IIOContext())
            try #require(imus.count == 1)
            #expect(imus[0].name == "bno055" && imus[0].hasAccelerometer)
            let source = IIOIMU.source(for: imus[0], rate: 100)
            #expect(source is IIOMotionSource)
            try source.start()
            let dir = "/sys/bus/iio/devices/iio:device0/scan_elements/"
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "tiltmaze")
            for on in ["accel_x", "accel_y", "accel_z", "magn_x", "magn_z", "anglvel_x", "anglvel_y", "anglvel_z", "timestamp"] {
                #expect(testbed.readFile(dir + "in_\(on)_en") == "1", "\(on)")
            }
            for off in ["gravity_x", "gravity_z"] {
                #expect(testbed.readFile(dir + "in_\(off)_en") == "0", "\(off)")
            }
            // The scan: accel x, y, z, magn x, y, z, anglvel x, y, z (le s16 by index), padding, the timestamp.
            var scan = ScanBytes()
            scan.le16(0); scan.le16(-981); scan.le16(0)
            scan.le16(320); scan.le16(-160); scan.le16(-800)
            scan.le16(900); scan.le16(0); scan.le16(-450)
            scan.pad(to: 8)
            scan.le64(7_000_000_000)
            try testbed.writeScans(scan.bytes, to: "/dev/iio:device0")
            var got: [MotionSample] = []
            _ = eventually { source.samples.drain { got.append($0) }; return !got.isEmpty }
            source.stop()
            let sample = try #require(got.first)
            #expect(sample.timestamp == 7_000_000_000)
            #expect(sample.acceleration == Vector3(0, -981 * 0.01, 0))
            #expect(sample.rotationRate == Vector3(900 * 0.001111111, 0, -450 * 0.001111111))
            // 16 counts a µT (the chip's data sheet), though the driver's
            // scale, 1/160, read as gauss would make the field ten times that.
            #expect(sample.hasMagneticField)
            #expect(abs(sample.magneticField.x - 20) < 1e-9 && abs(sample.magneticField.y + 10) < 1e-9 && abs(sample.magneticField.z + 50) < 1e-9,
                    "\(sample.magneticField)")
        }
    }

    @Test("BNO055 with --chip-fusion: its gravity channels captured instead of the accelerometer's, as the sample's acceleration; refused, saying how, while its fusion is off")
    func bno055ChipFusion() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.bno055())
            try testbed.add(MockIIOTrigger(id: "trigger1", name: "tiltmaze", attributes: ["sampling_frequency": "100"]))
            let imus = IIOIMU.find(in: try IIOContext())
            try #require(imus.count == 1)
            #expect(imus[0].offersChipFusion && imus[0].chipFusionRefusal == nil)
            let source = IIOMotionSource(imu: imus[0], rate: 100, acceleration: .chipGravity)
            #expect(source.displayName == "bno055 on iio:device0 (the chip's own fusion)")
            try source.start()
            let dir = "/sys/bus/iio/devices/iio:device0/scan_elements/"
            for on in ["gravity_x", "gravity_y", "gravity_z", "anglvel_x", "magn_x", "timestamp"] {
                #expect(testbed.readFile(dir + "in_\(on)_en") == "1", "\(on)")
            }
            for off in ["accel_x", "accel_y", "accel_z"] { #expect(testbed.readFile(dir + "in_\(off)_en") == "0", "\(off)") }
            // The scan: magn x, y, z (3–5), anglvel (6–8), gravity (16–18), padding, the timestamp.
            var scan = ScanBytes()
            scan.le16(320); scan.le16(-160); scan.le16(-800)
            scan.le16(0); scan.le16(0); scan.le16(0)
            scan.le16(0); scan.le16(490); scan.le16(849)
            scan.pad(to: 8)
            scan.le64(8_000_000_000)
            try testbed.writeScans(scan.bytes, to: "/dev/iio:device0")
            var got: [MotionSample] = []
            _ = eventually { source.samples.drain { got.append($0) }; return !got.isEmpty }
            source.stop()
            let sample = try #require(got.first)
            #expect(sample.acceleration == Vector3(0, 490 * 0.01, 849 * 0.01))
            #expect(sample.fields == .all)

            try testbed.writeFile("/sys/bus/iio/devices/iio:device0/fusion_enable", "0\n")
            let off = IIOMotionSource(imu: imus[0], rate: 100, acceleration: .chipGravity)
            #expect { try off.start() } throws: { error in
                "\(error)".contains("the chip's fusion is off (fusion_enable is 0)") && "\(error)".contains("/sys/bus/iio/devices/iio:device0/fusion_enable")
            }
        }
    }

    @Test("MPU-9250: the magnetometer's channels captured beside the others, in µT by each axis's scale, turned by its own mount matrix; a repeated reading is not passed on as new")
    func mpu9250() throws {
        try withIMUs([MockIIODevice.mpu9250()]) { testbed, imus in
            try #require(imus.count == 1)
            let source = IIOMotionSource(imu: imus[0], rate: 200)
            try source.start()
            let dir = "/sys/bus/iio/devices/iio:device0/scan_elements/"
            for on in ["magn_x", "magn_y", "magn_z"] { #expect(testbed.readFile(dir + "in_\(on)_en") == "1", "\(on)") }
            #expect(source.scales?.magnetometer.map { abs($0 - 0.1508) < 1e-12 } == true)
            func scan(_ m: (Int16, Int16, Int16), _ t: Int64) -> [UInt8] {
                var s = ScanBytes()
                for v: Int16 in [0, 0, 16384, 0, 0, 0] { s.be16(v) }
                s.be16(m.0); s.be16(m.1); s.be16(m.2)
                s.pad(to: 8)
                s.le64(t)
                return s.bytes
            }
            // The driver reads the AK8963 at 50 Hz: at 200 Hz each reading comes in four scans.
            let readings: [(Int16, Int16, Int16)] = [(100, 200, 300), (100, 200, 300), (100, 200, 300), (110, 190, 310)]
            try testbed.writeScans(readings.enumerated().flatMap { scan($1, 1_000_000_000 + Int64($0) * 5_000_000) }, to: "/dev/iio:device0")
            let got = collect(source, count: 4)
            source.stop()
            try #require(got.count == 4)
            #expect(got.map(\.hasMagneticField) == [true, false, false, true])
            // AK8963 (x, y, z) is the MPU's (y, x, -z).
            let first = got[0].magneticField
            #expect(abs(first.x - 200 * 0.1523) < 1e-9 && abs(first.y - 100 * 0.1508) < 1e-9 && abs(first.z + 300 * 0.1449) < 1e-9, "\(first)")
        }
    }

    @Test("a chip that needs a trigger when none can be had fails to start, pointing to the set-up")
    func noTriggerPossible() throws {
        try withIMUs([triggerlessChip()]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], configfsRoot: "/nonexistent-configfs")
            #expect { try source.start() } throws: { error in
                "\(error)".contains("no data-ready trigger and no hrtimer trigger") && "\(error)".contains("trigger/current_trigger")
            }
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/current_timestamp_clock") == "realtime")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
        }
    }

    @Test("a scan stamped before the previous one is refused and counted, not passed on")
    func impossibleScan() throws {
        try withIMUs([.mpu6050()]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0])
            try source.start()
            try testbed.writeScans(mpuScan((1, 1, 1), (0, 0, 0), 2_000), to: "/dev/iio:device0")
            try testbed.writeScans(mpuScan((2, 2, 2), (0, 0, 0), 1_000), to: "/dev/iio:device0")
            try testbed.writeScans(mpuScan((3, 3, 3), (0, 0, 0), 3_000), to: "/dev/iio:device0")
            let got = collect(source, count: 2)
            source.stop()
            #expect(got.map(\.timestamp) == [2_000, 3_000])
            #expect(source.rejectedCount == 1)
        }
    }

    @Test("a scale that is not a number stops start() with an error naming the attribute, and nothing stays changed")
    func garbageScale() throws {
        let mpu = MockIIODevice.mpu6050(extraAttributes: ["in_accel_scale": "fast"])
        try withIMUs([mpu]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0])
            #expect { try source.start() } throws: { error in
                "\(error)".contains("in_accel_scale") && "\(error)".contains("fast")
            }
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "0")
        }
    }
}

@Suite("IIO motion source on mock devices, under umockdev-wrapper")
struct IIOMotionSourceUnderPreload {
    @Test("the mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "MotionIIOTests.IIOMotionSourceMockTests/")
        #expect(run.passed, "\(run)")
    }
}
