// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MockDevices
import Testing

/// udev/tiltmaze-sysfs-access run, as the rules run it, on the sysfs trees the
/// real drivers made in the qemu tier (`Tests/Fixtures/kernel/`): a motion
/// sensor gets exactly the files the game writes, and an ADC beside it gets
/// nothing. Then the game itself, as a user whose only way in is that group,
/// captures from the sensor: nothing it needs was left out.
@Suite("udev helper on the real drivers' sysfs trees", .serialized, .enabled(if: UmockdevPreload.isActive))
struct UdevGrantFixtureTests {
    /// Every file under `directory` (relative paths) whose group is `gid`, the directory's own entries
    /// only down into the IIO device's attribute groups (not into child devices).
    static func granted(under directory: String, gid: gid_t) -> Set<String> {
        var found: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return found }
        while let relative = walker.nextObject() as? String {
            var info = stat()
            guard lstat(directory + "/" + relative, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR, FileManager.default.fileExists(atPath: directory + "/" + relative + "/uevent") {
                walker.skipDescendants()
                continue
            }
            if info.st_mode & S_IFMT == S_IFREG && info.st_gid == gid { found.insert(relative) }
        }
        return found
    }

    /// Runs the helper on `sysfsPath` (as the rules would for that device's add
    /// event): a copy of it whose sysfs is the testbed's, which it takes for /sys.
    static func grant(_ kind: String, _ sysfsPath: String, in testbed: Testbed, group: String) throws {
        let sysfs = testbed.realPath("/sys")
        let copy = (sysfs as NSString).deletingLastPathComponent + "/tiltmaze-sysfs-access"
        try SysfsAccessHelperTests.copyHelper(to: copy, sysfs: sysfs, dev: (sysfs as NSString).deletingLastPathComponent + "/dev")
        let r = try ProgramRunner.shell("/bin/sh", [copy, group, kind, testbed.realPath(sysfsPath)])
        #expect(r.status == 0, "\(kind) \(sysfsPath): \(r.stderr)")
    }

    /// Runs `monitor --source iio:bmi160` as nobody in `group` while two
    /// bmi160 scans are written to the testbed's node; it must print both.
    static func monitorTwoScans(as group: String, in testbed: Testbed) throws {
        var bytes: [UInt8] = []
        for raw in [Int16(1000), Int16(-1000)] {
            var s = ScanBytes()
            s.le16(0); s.le16(0); s.le16(raw)
            s.le16(raw); s.le16(0); s.le16(16384)
            s.pad(to: 8)
            s.le64(2_000_000_000)
            bytes += s.bytes
        }
        let command = ["/usr/bin/setpriv", "--reuid=\(UnprivilegedFileAccess.nobody)", "--regid=\(UnprivilegedFileAccess.nobody)",
                       "--groups=\(getgrnam(group).pointee.gr_gid)", "--", ProgramRunner.binary]
        let (status, stdout, stderr) = try runWhileWriting(["monitor", "--source", "iio:bmi160", "--json", "--samples", "2"],
                                                           scans: bytes, to: testbed, device: "iio:device1", command: command)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.split(separator: "\n").count == 2, "\(stdout)")
    }

    /// What the game writes on a bmi160 (its per-type rates, no device-wide one), as the driver names them.
    static let bmi160Writes: Set<String> = [
        "buffer/data_available", "buffer/direction", "buffer/enable", "buffer/length", "buffer/watermark",
        "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en", "scan_elements/in_accel_z_en",
        "scan_elements/in_anglvel_x_en", "scan_elements/in_anglvel_y_en", "scan_elements/in_anglvel_z_en",
        "scan_elements/in_timestamp_en",
        "trigger/current_trigger", "in_accel_sampling_frequency", "in_anglvel_sampling_frequency", "current_timestamp_clock",
    ]

    @Test("bmi160 gets exactly what the game writes, its per-type rates included; an ADC beside it (ads1015) gets nothing")
    func imuBesideADC() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: KernelFixtures.text("iio-bmi160.umockdev"))
            try Self.add(KernelFixtures.text("iio-ads1015.umockdev"), to: testbed)
            let group = SysfsAccessHelperTests.group
            let imu = "/sys/devices/i2c-0/0-0069/iio:device1"
            let adc = try #require(Self.iioDevice(named: "ads1015", in: testbed))
            try Self.grant("device", imu, in: testbed, group: group.name)
            try Self.grant("device", adc, in: testbed, group: group.name)
            #expect(Self.granted(under: testbed.realPath(imu), gid: group.gid) == Self.bmi160Writes)
            #expect(Self.granted(under: testbed.realPath(adc), gid: group.gid).isEmpty, "the ADC was granted something")
        }
    }

    @Test("a HID sensor hub's accelerometer and gyroscope get their buffers, scan elements, triggers and per-type rates")
    func sensorHub() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: KernelFixtures.text("iio-hid-sensor-hub.umockdev"))
            let group = SysfsAccessHelperTests.group
            for name in ["accel_3d", "gyro_3d"] {
                let device = try #require(Self.iioDevice(named: name, in: testbed))
                try Self.grant("device", device, in: testbed, group: group.name)
                let type = name == "accel_3d" ? "accel" : "anglvel"
                let files = Self.granted(under: testbed.realPath(device), gid: group.gid)
                #expect(files.contains("in_\(type)_sampling_frequency"), "\(name): \(files.sorted())")
                #expect(files.contains("buffer/enable") && files.contains("trigger/current_trigger"), "\(name): \(files.sorted())")
                #expect(files.filter { $0.hasPrefix("scan_elements/") } == Set(["x", "y", "z"].map { "scan_elements/in_\(type)_\($0)_en" } + ["scan_elements/in_timestamp_en"]),
                        "\(name): \(files.sorted())")
                #expect(files.allSatisfy { $0.hasPrefix("buffer/") || $0.hasPrefix("scan_elements/") || $0 == "trigger/current_trigger" || $0.hasSuffix("sampling_frequency")
                    || $0 == "current_timestamp_clock" },
                        "\(name): more than the game writes: \(files.sorted())")
            }
        }
    }

    /// Adds a second fixture's devices but those the testbed has already
    /// (the parents two chips on one bus share).
    static func add(_ description: String, to testbed: Testbed) throws {
        let blocks = description.components(separatedBy: "\n\n").filter { block in
            guard let path = block.split(separator: "\n").first(where: { $0.hasPrefix("P: ") }) else { return false }
            return !FileManager.default.fileExists(atPath: testbed.realPath("/sys" + path.dropFirst(3)))
        }
        try testbed.add(description: blocks.joined(separator: "\n\n") + "\n\n")
    }

    /// The sysfs path (under /sys/devices) of the IIO device whose `name` is `name`.
    static func iioDevice(named name: String, in testbed: Testbed) -> String? {
        let bus = testbed.realPath("/sys/bus/iio/devices")
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: bus)) ?? [] where entry.hasPrefix("iio:device") {
            guard testbed.readFile("/sys/bus/iio/devices/\(entry)/name") == name,
                  let real = try? FileManager.default.destinationOfSymbolicLink(atPath: bus + "/" + entry) else { continue }
            // The link is relative (../../../devices/…): keep the part from /devices on.
            guard let at = real.range(of: "devices/") else { continue }
            return "/sys/" + real[at.lowerBound...]
        }
        return nil
    }

    @Test("as a user whose only way in is the group the helper granted, monitor captures from the bmi160, sets and restores its rates",
          .enabled(if: geteuid() == 0, "needs root to run the program as another user"))
    func capturesThroughTheGroup() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: KernelFixtures.text("iio-bmi160.umockdev"))
            try testbed.add(MockIIOTrigger(id: "trigger0", name: "bmi160-dev1", parent: "/devices/i2c-0/0-0069"))
            // A group nobody is not in by default, standing in for tiltmaze.
            let group = "games"
            let imu = "/sys/devices/i2c-0/0-0069/iio:device1"
            try Self.grant("device", imu, in: testbed, group: group)
            // The node: a pty in the testbed, given to the group as the helper gives /dev/iio:deviceN.
            let node = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: testbed.realPath("/dev/iio:device1")))
            #expect(chown(node, 0, getgrnam(group).pointee.gr_gid) == 0 && chmod(node, 0o660) == 0)
            UnprivilegedFileAccess.share(testbed)
            try Self.monitorTwoScans(as: group, in: testbed)
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device1/in_accel_sampling_frequency") == "100.000000", "put back as the driver wrote it")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device1/buffer/enable") == "0")
        }
    }

    @Test("as a member, monitor paces the bmi160 by the boot-time hrtimer trigger at root's rate, which it cannot change and leaves as it was",
          .enabled(if: geteuid() == 0, "needs root to run the program as another user"))
    func usesTheBootTimeTriggerAtItsRate() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: KernelFixtures.text("iio-bmi160.umockdev"))
            // No data-ready trigger (INT not wired): only the one tiltmaze-hrtimer.service made, root's.
            let trigger = MockIIOTrigger(id: "trigger0", name: "tiltmaze", parent: "/devices", attributes: ["sampling_frequency": "200.000"])
            try testbed.add(trigger)
            let rate = testbed.realPath(trigger.sysfsPath + "/sampling_frequency")
            #expect(chown(rate, 0, 0) == 0 && chmod(rate, 0o644) == 0)
            let group = "games"
            try Self.grant("device", "/sys/devices/i2c-0/0-0069/iio:device1", in: testbed, group: group)
            let node = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: testbed.realPath("/dev/iio:device1")))
            #expect(chown(node, 0, getgrnam(group).pointee.gr_gid) == 0 && chmod(node, 0o660) == 0)
            UnprivilegedFileAccess.share(testbed)
            #expect(chown(rate, 0, 0) == 0 && chmod(rate, 0o644) == 0, "shared, the rate stays root's")
            try Self.monitorTwoScans(as: group, in: testbed)
            #expect(testbed.readFile(trigger.sysfsPath + "/sampling_frequency") == "200.000", "the member changed root's rate")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device1/trigger/current_trigger").map { $0.isEmpty || $0 == "(null)" } ?? true,
                    "the trigger was not let go: \(testbed.readFile("/sys/bus/iio/devices/iio:device1/trigger/current_trigger") ?? "")")
        }
    }
}

@Suite("udev helper on the real drivers' sysfs trees, under umockdev-wrapper")
struct UdevGrantFixtureTestsUnderPreload {
    @Test("the suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.UdevGrantFixtureTests/")
        #expect(run.passed, "\(run)")
    }
}
