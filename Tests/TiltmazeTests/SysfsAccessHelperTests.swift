// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation

/// udev/tiltmaze-sysfs-access run on a directory shaped like an IIO device's
/// sysfs directory: it must give the group exactly the files the game writes,
/// with the owner's permissions, and touch nothing else.
@Suite("udev/tiltmaze-sysfs-access")
struct SysfsAccessHelperTests {
    static let helper = UdevRulesTests.repository.appendingPathComponent("udev/tiltmaze-sysfs-access").path

    /// A group the helper can give files to: any group when root, else the
    /// user's own (the only kind a user may chgrp to).
    static let group: (name: String, gid: gid_t) = {
        if geteuid() == 0, let g = getgrnam("nogroup") { return ("nogroup", g.pointee.gr_gid) }
        let gid = getegid()
        return (getgrgid(gid).map { String(cString: $0.pointee.gr_name) } ?? String(gid), gid)
    }()

    /// Writes the helper to `path` with its sysfs and /dev pointed elsewhere:
    /// the copy differs from it in those two lines only.
    static func copyHelper(to path: String, sysfs: String, dev: String) throws {
        let original = try String(contentsOfFile: helper, encoding: .utf8)
        let pointed = original.replacingOccurrences(of: "\nsysfs=/sys\ndev=/dev\n", with: "\nsysfs=\(sysfs)\ndev=\(dev)\n")
        #expect(pointed != original, "the helper no longer has the lines sysfs=/sys and dev=/dev")
        try pointed.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A fixture: a temporary directory standing for the machine's root,
    /// with the helper copied in and pointed at its `sys` and `dev` (the
    /// copy differs from the helper in those two lines only).
    struct Fixture {
        let root: String
        var sys: String { root + "/sys" }
        var dev: String { root + "/dev" }
        var helper: String { root + "/helper" }

        init() throws {
            let made = NSTemporaryDirectory() + "tiltmaze-sysfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: made + "/sys/devices", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: made + "/dev/input", withIntermediateDirectories: true)
            // The helper refuses a path with a link in it: TMPDIR may be one.
            let resolved = try #require(realpath(made, nil))
            defer { free(resolved) }
            root = String(cString: resolved)
            try SysfsAccessHelperTests.copyHelper(to: helper, sysfs: sys, dev: dev)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }

        /// Makes `files` (relative to the fixture's root → mode) and returns the root.
        @discardableResult
        func make(_ files: [String: mode_t]) throws -> String {
            for (path, mode) in files {
                let full = root + "/" + path
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: full, contents: Data("0\n".utf8)))
                chmod(full, mode)
            }
            return root
        }

        func run(_ args: [String]) throws -> ProgramRunner.Result {
            try ProgramRunner.shell("/bin/sh", [helper] + args)
        }
    }

    /// A temporary IIO device directory under a fixture's sys/devices with `files`
    /// (relative to the device → mode); the fixture is removed by the caller.
    func device(_ files: [String: mode_t], in fixture: Fixture, at path: String = "i2c-0/0-0068/iio:device0") throws -> String {
        try fixture.make(Dictionary(uniqueKeysWithValues: files.map { ("sys/devices/\(path)/\($0.key)", $0.value) }))
        return fixture.sys + "/devices/" + path
    }

    func modeAndGroup(_ path: String) -> (mode: mode_t, gid: gid_t) {
        var info = stat()
        lstat(path, &info)
        return (info.st_mode & 0o7777, info.st_gid)
    }

    @Test("a motion sensor: buffer/*, scan_elements/*_en, current_trigger, rate and clock get the group; the rest is untouched")
    func grantsWhatTheGameWrites() throws {
        let granted: [String: mode_t] = [
            "buffer/enable": 0o644, "buffer/length": 0o644, "buffer/watermark": 0o644,
            "scan_elements/in_accel_x_en": 0o644, "scan_elements/in_timestamp_en": 0o644,
            "trigger/current_trigger": 0o644, "sampling_frequency": 0o644, "current_timestamp_clock": 0o644,
        ]
        let readOnly: [String: mode_t] = ["buffer/data_available": 0o444]
        let untouched: [String: mode_t] = [
            "name": 0o600, "in_accel_x_raw": 0o600, "in_accel_x_calibbias": 0o600,
            "scan_elements/in_accel_x_type": 0o600, "scan_elements/in_accel_x_index": 0o600,
            "sampling_frequency_available": 0o600,
        ]
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(granted.merging(readOnly) { $1 }.merging(untouched) { $1 }, in: fixture)
        let r = try fixture.run([Self.group.name, "device", dir])
        #expect(r.status == 0, "\(r.stderr)")
        for file in granted.keys {
            #expect(modeAndGroup(dir + "/" + file) == (0o664, Self.group.gid), "\(file)")
        }
        #expect(modeAndGroup(dir + "/buffer/data_available") == (0o444, Self.group.gid), "a read-only attribute stays read-only")
        for file in untouched.keys {
            #expect(modeAndGroup(dir + "/" + file).mode == 0o600, "\(file) was changed")
        }
    }

    @Test("a driver without some attributes (st_lsm6dsx: no trigger, no clock) is fine")
    func partialDevice() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(["buffer/enable": 0o644, "scan_elements/in_anglvel_z_en": 0o644], in: fixture)
        let r = try fixture.run([Self.group.name, "device", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(modeAndGroup(dir + "/buffer/enable").mode == 0o664)
        #expect(modeAndGroup(dir + "/scan_elements/in_anglvel_z_en").mode == 0o664)
    }

    @Test("a device with no motion channel (an ADC: voltages, its own buffer and rate) is left exactly as it was, though an IMU shares its parent")
    func notAMotionSensor() throws {
        let files: [String: mode_t] = [
            "in_voltage0_raw": 0o644, "in_voltage0_sampling_frequency": 0o644, "sampling_frequency": 0o644,
            "buffer/enable": 0o644, "scan_elements/in_voltage0_en": 0o644, "trigger/current_trigger": 0o644,
        ]
        let fixture = try Fixture()
        defer { fixture.remove() }
        let imu = try device(["in_accel_x_raw": 0o644, "buffer/enable": 0o644], in: fixture, at: "platform/mfd/iio:device0")
        let adc = try device(files, in: fixture, at: "platform/mfd/iio:device1")
        #expect(try fixture.run([Self.group.name, "device", imu]).status == 0)
        let r = try fixture.run([Self.group.name, "device", adc])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(modeAndGroup(imu + "/buffer/enable") == (0o664, Self.group.gid))
        for file in files.keys {
            #expect(modeAndGroup(adc + "/" + file) == (0o644, getegid()), "\(file) was changed")
        }
    }

    @Test("the per-type rates (BMI160, HID sensor hubs) are granted with the motion channels; a magnetometer alone counts as one")
    func perTypeRates() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(["in_accel_sampling_frequency": 0o644, "in_anglvel_sampling_frequency": 0o644,
                              "in_accel_x_raw": 0o644, "in_anglvel_x_raw": 0o644, "in_temp_raw": 0o644], in: fixture)
        #expect(try fixture.run([Self.group.name, "device", dir]).status == 0)
        #expect(modeAndGroup(dir + "/in_accel_sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(dir + "/in_anglvel_sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(dir + "/in_accel_x_raw").mode == 0o644, "raw values are read, never written")

        let magnetometer = try device(["in_magn_x_raw": 0o644, "in_magn_sampling_frequency": 0o644], in: fixture, at: "i2c-0/0-001e/iio:device1")
        #expect(try fixture.run([Self.group.name, "device", magnetometer]).status == 0)
        #expect(modeAndGroup(magnetometer + "/in_magn_sampling_frequency") == (0o664, Self.group.gid))
    }

    @Test("a symbolic link among the attributes is never followed: the file it names keeps its group and mode, and the helper says so")
    func symlinkedAttribute() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(["in_accel_x_raw": 0o644, "buffer/length": 0o644], in: fixture)
        let secret = try fixture.make(["secret": 0o600]) + "/secret"
        #expect(symlink(secret, dir + "/buffer/enable") == 0)
        #expect(symlink(secret, dir + "/sampling_frequency") == 0)
        let r = try fixture.run([Self.group.name, "device", dir])
        #expect(r.status == 1, "a link left alone is reported")
        #expect(r.stderr.contains("\(dir)/buffer/enable is not a plain file"), "\(r.stderr)")
        #expect(modeAndGroup(secret) == (0o600, getegid()), "the link's target was granted")
        #expect(modeAndGroup(dir + "/buffer/length") == (0o664, Self.group.gid), "the rest is still granted")
    }

    @Test("a device named through a link, or outside sys/devices, or with .. in it, is refused and nothing changes")
    func pathsOutside() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(["in_accel_x_raw": 0o644, "buffer/enable": 0o644], in: fixture)
        try FileManager.default.createDirectory(atPath: fixture.sys + "/bus/iio/devices", withIntermediateDirectories: true)
        #expect(symlink(dir, fixture.sys + "/bus/iio/devices/iio:device0") == 0)
        try fixture.make(["sys/kernel/config/in_accel_x_raw": 0o644, "sys/kernel/config/buffer/enable": 0o644])
        for refused in [fixture.sys + "/bus/iio/devices/iio:device0", fixture.sys + "/kernel/config",
                        fixture.sys + "/devices/../kernel/config", fixture.sys + "/devices/i2c-0/../i2c-0/0-0068/iio:device0"] {
            let r = try fixture.run([Self.group.name, "device", refused])
            #expect(r.status == 1 && r.stderr.contains("\(refused) is not a device directory under \(fixture.sys)/devices"), "\(refused): \(r.stderr)")
        }
        #expect(modeAndGroup(dir + "/buffer/enable").mode == 0o644)
        #expect(modeAndGroup(fixture.sys + "/kernel/config/buffer/enable").mode == 0o644)
    }

    @Test("the node of a motion sensor gets the group, read/write, nothing for others; a path that is no device node is refused",
          .enabled(if: geteuid() == 0, "making a device node needs root"))
    func node() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = try device(["in_accel_x_raw": 0o644], in: fixture)
        let node = fixture.dev + "/iio:device9"
        #expect(mknod(node, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0, "mknod: \(errno)")
        #expect(try fixture.run([Self.group.name, "device", dir, node]).status == 0)
        #expect(modeAndGroup(node) == (0o660, Self.group.gid))
        let plain = dir + "/in_accel_x_raw"
        let refused = try fixture.run([Self.group.name, "device", dir, plain])
        #expect(refused.status == 1 && refused.stderr.contains("\(plain) is not a character device under \(fixture.dev)"), "\(refused.stderr)")
    }

    @Test("an input node gets an ACL entry letting the group read it, its owner, group and mode untouched; a link or a file elsewhere is refused",
          .enabled(if: geteuid() == 0, "making a device node needs root"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setfacl"), "setfacl (package acl) is not installed"))
    func inputNode() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let node = fixture.dev + "/input/event7"
        #expect(mknod(node, S_IFCHR | 0o660, dev_t(13 << 8 | 71)) == 0, "mknod: \(errno)")
        chmod(node, 0o660)   // as Debian's rules leave an input node (mknod took the umask off)
        let r = try fixture.run([Self.group.name, "input", node])
        #expect(r.status == 0, "\(r.stderr)")
        let acl = try ProgramRunner.shell("/usr/bin/getfacl", ["--omit-header", "--numeric", node])
        #expect(acl.stdout.contains("group:\(Self.group.gid):r--"), "\(acl.stdout)")
        #expect(!acl.stdout.contains("other::r"), "\(acl.stdout)")
        #expect(modeAndGroup(node) == (0o660, 0), "the node's own group and mode stay Debian's")

        #expect(symlink(node, fixture.dev + "/input/by-id-link") == 0)
        let elsewhere = fixture.dev + "/event8"
        #expect(mknod(elsewhere, S_IFCHR | 0o660, dev_t(13 << 8 | 72)) == 0)
        for refused in [fixture.dev + "/input/by-id-link", elsewhere, fixture.sys + "/devices"] {
            let r = try fixture.run([Self.group.name, "input", refused])
            #expect(r.status == 1 && r.stderr.contains("\(refused) is not an input device node under \(fixture.dev)/input"), "\(refused): \(r.stderr)")
        }
        let untouched = try ProgramRunner.shell("/usr/bin/getfacl", ["--omit-header", "--numeric", elsewhere])
        #expect(!untouched.stdout.contains("group:\(Self.group.gid)"), "\(untouched.stdout)")
    }

    @Test("revoke-triggers takes back what earlier versions gave the group: the hrtimer directory and triggers' rates, through the bus's links",
          .enabled(if: geteuid() == 0, "giving files back to root needs root"))
    func revokeTriggers() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let hrtimer = fixture.sys + "/kernel/config/iio/triggers/hrtimer"
        try FileManager.default.createDirectory(atPath: hrtimer, withIntermediateDirectories: true)
        try fixture.make(["sys/devices/trigger0/sampling_frequency": 0o644, "sys/devices/trigger1/sampling_frequency": 0o644,
                          "sys/devices/i2c-0/0-0048/trigger2/sampling_frequency": 0o644])
        try FileManager.default.createDirectory(atPath: fixture.sys + "/bus/iio/devices", withIntermediateDirectories: true)
        for (link, target) in [("trigger0", "devices/trigger0"), ("trigger1", "devices/trigger1"), ("trigger2", "devices/i2c-0/0-0048/trigger2")] {
            #expect(symlink("../../../" + target, fixture.sys + "/bus/iio/devices/" + link) == 0)
        }
        // As an earlier version left them: the group's, writable by it (trigger1 another group's).
        for path in [hrtimer, fixture.sys + "/devices/trigger0/sampling_frequency", fixture.sys + "/devices/i2c-0/0-0048/trigger2/sampling_frequency"] {
            #expect(chown(path, uid_t.max, Self.group.gid) == 0)
            chmod(path, path == hrtimer ? 0o775 : 0o664)
        }
        chmod(fixture.sys + "/devices/trigger1/sampling_frequency", 0o664)
        let r = try fixture.run([Self.group.name, "revoke-triggers"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(modeAndGroup(hrtimer) == (0o755, 0))
        #expect(modeAndGroup(fixture.sys + "/devices/trigger0/sampling_frequency") == (0o644, 0))
        #expect(modeAndGroup(fixture.sys + "/devices/i2c-0/0-0048/trigger2/sampling_frequency") == (0o644, 0))
        #expect(modeAndGroup(fixture.sys + "/devices/trigger1/sampling_frequency").mode == 0o664, "another group's file was changed")
    }

    @Test("a missing directory or wrong arguments: an error naming it, and a failing status; the old trigger and hrtimer kinds are gone")
    func refuses() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let missing = try fixture.run([Self.group.name, "device", fixture.sys + "/devices/iio:device9"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(fixture.sys)/devices/iio:device9 is not a device directory"), "\(missing.stderr)")
        for args in [["everything", NSTemporaryDirectory()], ["trigger", fixture.sys + "/devices"],
                     ["hrtimer", fixture.sys + "/kernel/config/iio/triggers/hrtimer"], ["revoke-triggers", "extra"]] {
            let usage = try fixture.run([Self.group.name] + args)
            #expect(usage.status == 2 && usage.stderr.contains("usage:"), "\(args): \(usage.stderr)")
        }
        #expect(try fixture.run(["only-one-argument"]).status == 2)
    }
}
