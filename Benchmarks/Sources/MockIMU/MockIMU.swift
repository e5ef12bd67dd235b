// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CUmockdevBench
#if canImport(Glibc)
import Glibc
#endif

// The little of the root package's Tests/MockDevices that the IIOLatency
// benchmark needs (MockDevices is a test-support target, not a product):
// a umockdev testbed, the MPU-6050 it holds, and whether the preload is on.
// See ../../../Tests/MockDevices (Testbed.swift explains the preload).

/// A umockdev testbed: a fake /sys and /dev that libiio sees instead of the
/// machine's, through libumockdev-preload. Making one sets `UMOCKDEV_DIR`
/// for the whole process; `deinit` removes it again (`g_object_unref`).
public final class MockTestbed {
    let handle: UnsafeMutablePointer<UMockdevTestbed>

    public init() { handle = umockdev_testbed_new() }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Adds the devices of a umockdev description (`P:`/`N:`/`E:`/`A:` lines).
    /// The corresponding C function is `umockdev_testbed_add_from_string`.
    public func add(description: String) throws(MockTestbedError) {
        var error: UnsafeMutablePointer<GError>? = nil
        if umockdev_testbed_add_from_string(handle, description, &error) == 0 {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
            if let error { g_error_free(error) }
            throw MockTestbedError(description: "umockdev: cannot add a device description: \(message)")
        }
    }

    /// The pty master standing in for a device node ("/dev/iio:device0"): what
    /// is written to it, the program reads from the node. Owned by the testbed.
    /// The corresponding C function is `umockdev_testbed_get_dev_fd`.
    public func deviceFD(_ node: String) -> Int32? {
        let fd = umockdev_testbed_get_dev_fd(handle, node)
        return fd >= 0 ? fd : nil
    }
}

public struct MockTestbedError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

public enum UmockdevPreload {
    /// Whether `LD_PRELOAD` holds libumockdev-preload (as `umockdev-wrapper` sets it).
    public static var isActive: Bool {
        guard let preload = getenv("LD_PRELOAD") else { return false }
        return String(cString: preload).contains("libumockdev-preload")
    }
}

/// inv_mpu6050 as Tests/MockDevices' `MockIIODevice.mpu6050()` describes it:
/// accel x/y/z (scan 0–2), temp (3), anglvel x/y/z (4–6) as be:s16/16>>0,
/// a le:s64 timestamp (7), data-ready trigger "mpu6050-dev0", node
/// /dev/iio:device0. Every value ends in "\n" (libiio 0.24 drops the last
/// byte of each sysfs read). `mountMatrix` adds a `mount_matrix` attribute.
public func mpu6050Description(mountMatrix: String? = nil) -> String {
    let parent = "/devices/platform/soc/fe804000.i2c/i2c-1/1-0068"
    var attributes: [(String, String)] = [
        ("name", "mpu6050"), ("dev", "241:0"),
        ("sampling_frequency", "50"), ("sampling_frequency_available", "10 20 50 100 200 500"),
        ("current_timestamp_clock", "realtime"),
        ("in_accel_scale", "0.000598"), ("in_anglvel_scale", "0.000133090"),
        ("in_temp_scale", "2.941176"), ("in_temp_offset", "12420"),
    ]
    if let mountMatrix { attributes.append(("mount_matrix", mountMatrix)) }
    let channels = ["accel_x", "accel_y", "accel_z", "temp", "anglvel_x", "anglvel_y", "anglvel_z"]
    for (index, id) in channels.enumerated() {
        attributes += [("in_\(id)_raw", "0"), ("scan_elements/in_\(id)_en", "0"),
                       ("scan_elements/in_\(id)_index", String(index)),
                       ("scan_elements/in_\(id)_type", "be:s16/16>>0")]
    }
    attributes += [("scan_elements/in_timestamp_en", "0"), ("scan_elements/in_timestamp_index", "7"),
                   ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
                   ("buffer/enable", "0"), ("buffer/length", "1"), ("buffer/watermark", "1"),
                   ("trigger/current_trigger", "")]
    var lines = ["P: \(parent)/iio:device0", "N: iio:device0", "E: DEVNAME=/dev/iio:device0",
                 "E: DEVTYPE=iio_device", "E: SUBSYSTEM=iio", "E: MAJOR=241", "E: MINOR=0"]
    lines += attributes.map { "A: \($0.0)=\($0.1)\\n" }
    lines += ["", "P: \(parent)/trigger0", "E: SUBSYSTEM=iio", "A: name=mpu6050-dev0\\n"]
    return lines.joined(separator: "\n") + "\n\n"
}
