// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemCalls
import SystemPackage

/// Properties udev recorded for a device node (`/run/udev/data/c<major>:<minor>`),
/// such as `ACCEL_MOUNT_MATRIX` from systemd's `60-sensor.hwdb`. Read from the
/// file rather than through libudev: one small file, no extra library.
public enum UdevDatabase {
    public static let defaultDirectory = "/run/udev/data"

    /// The `E:` properties of the character device at `path`; empty when the
    /// node or its record does not exist.
    public static func properties(ofCharacterDevice path: String, directory: String = defaultDirectory) -> [String: String] {
        guard case .success(let info) = FilePath(path).status(), info.type == .characterSpecial else { return [:] }
        let (major, minor) = split(UInt64(info.specialDeviceID.rawValue))
        var properties: [String: String] = [:]
        for line in Sysfs.lines(of: "\(directory)/c\(major):\(minor)") ?? [] {
            guard line.hasPrefix("E:"), let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[line.index(line.startIndex, offsetBy: 2)..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }

    /// glibc's `gnu_dev_major`/`gnu_dev_minor` (macros Swift cannot import).
    static func split(_ rdev: UInt64) -> (major: UInt64, minor: UInt64) {
        let major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & ~UInt64(0xfff))
        let minor = (rdev & 0xff) | ((rdev >> 12) & ~UInt64(0xff))
        return (major, minor)
    }
}
