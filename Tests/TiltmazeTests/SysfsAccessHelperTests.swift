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

    /// A temporary directory with `files` (relative path → mode), removed by the caller.
    func tree(_ files: [String: mode_t]) throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-sysfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for (path, mode) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: full, contents: Data("0\n".utf8)))
            chmod(full, mode)
        }
        return root
    }

    func modeAndGroup(_ path: String) -> (mode: mode_t, gid: gid_t) {
        var info = stat()
        lstat(path, &info)
        return (info.st_mode & 0o7777, info.st_gid)
    }

    func run(_ args: [String]) throws -> ProgramRunner.Result {
        try ProgramRunner.shell("/bin/sh", [Self.helper] + args)
    }

    @Test("a motion sensor: buffer/*, scan_elements/*_en, current_trigger, rate and clock get the group; the rest is untouched")
    func device() throws {
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
        let root = try tree(granted.merging(readOnly) { $1 }.merging(untouched) { $1 })
        defer { try? FileManager.default.removeItem(atPath: root) }
        let r = try run([Self.group.name, "device", root])
        #expect(r.status == 0, "\(r.stderr)")
        for file in granted.keys {
            #expect(modeAndGroup(root + "/" + file) == (0o664, Self.group.gid), "\(file)")
        }
        #expect(modeAndGroup(root + "/buffer/data_available") == (0o444, Self.group.gid), "a read-only attribute stays read-only")
        for file in untouched.keys {
            #expect(modeAndGroup(root + "/" + file).mode == 0o600, "\(file) was changed")
        }
    }

    @Test("a driver without some attributes (st_lsm6dsx: no trigger, no clock) is fine")
    func partialDevice() throws {
        let root = try tree(["buffer/enable": 0o644, "scan_elements/in_anglvel_z_en": 0o644])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let r = try run([Self.group.name, "device", root])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(modeAndGroup(root + "/buffer/enable").mode == 0o664)
        #expect(modeAndGroup(root + "/scan_elements/in_anglvel_z_en").mode == 0o664)
    }

    @Test("trigger: its sampling_frequency only; hrtimer: the configfs directory, searchable and writable")
    func triggerAndHrtimer() throws {
        let root = try tree(["sampling_frequency": 0o644, "name": 0o600])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try run([Self.group.name, "trigger", root]).status == 0)
        #expect(modeAndGroup(root + "/sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(root + "/name").mode == 0o600)

        chmod(root, 0o755)
        #expect(try run([Self.group.name, "hrtimer", root]).status == 0)
        #expect(modeAndGroup(root) == (0o775, Self.group.gid))
    }

    @Test("a device with no motion channel (an ADC: voltages, its own buffer and rate) is left exactly as it was")
    func notAMotionSensor() throws {
        let files: [String: mode_t] = [
            "in_voltage0_raw": 0o644, "in_voltage0_sampling_frequency": 0o644, "sampling_frequency": 0o644,
            "buffer/enable": 0o644, "scan_elements/in_voltage0_en": 0o644, "trigger/current_trigger": 0o644,
        ]
        let root = try tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let r = try run([Self.group.name, "device", root])
        #expect(r.status == 0, "\(r.stderr)")
        for file in files.keys {
            #expect(modeAndGroup(root + "/" + file) == (0o644, getegid()), "\(file) was changed")
        }
    }

    @Test("the per-type rates (BMI160, HID sensor hubs) are granted with the motion channels; a magnetometer alone counts as one")
    func perTypeRates() throws {
        let root = try tree(["in_accel_sampling_frequency": 0o644, "in_anglvel_sampling_frequency": 0o644,
                             "in_accel_x_raw": 0o644, "in_anglvel_x_raw": 0o644, "in_temp_raw": 0o644])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try run([Self.group.name, "device", root]).status == 0)
        #expect(modeAndGroup(root + "/in_accel_sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(root + "/in_anglvel_sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(root + "/in_accel_x_raw").mode == 0o644, "raw values are read, never written")

        let magnetometer = try tree(["in_magn_x_raw": 0o644, "in_magn_sampling_frequency": 0o644])
        defer { try? FileManager.default.removeItem(atPath: magnetometer) }
        #expect(try run([Self.group.name, "device", magnetometer]).status == 0)
        #expect(modeAndGroup(magnetometer + "/in_magn_sampling_frequency") == (0o664, Self.group.gid))
    }

    @Test("the node of a motion sensor gets the group, read/write, nothing for others; a path that is no device node is refused",
          .enabled(if: geteuid() == 0, "making a device node needs root"))
    func node() throws {
        let root = try tree(["in_accel_x_raw": 0o644])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let node = root + "/iio:device9"
        #expect(mknod(node, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0, "mknod: \(errno)")
        #expect(try run([Self.group.name, "device", root, node]).status == 0)
        #expect(modeAndGroup(node) == (0o660, Self.group.gid))
        let plain = root + "/in_accel_x_raw"
        let refused = try run([Self.group.name, "device", root, plain])
        #expect(refused.status == 1 && refused.stderr.contains("\(plain) is not a character device"), "\(refused.stderr)")
    }

    @Test("a trigger is granted when it can serve a motion sensor (stand-alone, or beside one), not when it belongs to an ADC")
    func triggerOwners() throws {
        let root = try tree([
            "imu/iio:device0/in_accel_x_raw": 0o644, "imu/trigger0/sampling_frequency": 0o644,
            "adc/iio:device1/in_voltage0_raw": 0o644, "adc/trigger1/sampling_frequency": 0o644,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try run([Self.group.name, "trigger", root + "/imu/trigger0"]).status == 0)
        #expect(try run([Self.group.name, "trigger", root + "/adc/trigger1"]).status == 0)
        #expect(modeAndGroup(root + "/imu/trigger0/sampling_frequency") == (0o664, Self.group.gid))
        #expect(modeAndGroup(root + "/adc/trigger1/sampling_frequency").mode == 0o644)
    }

    @Test("a missing directory or wrong arguments: an error naming it, and a failing status")
    func refuses() throws {
        let missing = try run([Self.group.name, "device", "/nonexistent/iio:device9"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/iio:device9 is not a directory"))
        let usage = try run([Self.group.name, "everything", NSTemporaryDirectory()])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("usage:"))
        #expect(try run(["only-one-argument"]).status == 2)
    }
}
