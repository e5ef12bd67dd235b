// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A fake IIO device for a `Testbed`: what a driver would put in sysfs.
///
/// Builds a umockdev description with the files libiio 0.24 reads: `name`,
/// `label`, device attributes, per-channel and shared channel attributes,
/// `scan_elements/*_{en,index,type}`, `buffer/{enable,length,watermark}`,
/// `trigger/current_trigger`, and `dev=MAJ:MIN` plus `DEVNAME` so umockdev
/// makes `/dev/<id>` as a pty. Every value gets the kernel's trailing
/// newline (libiio drops the last byte of each read).
public struct MockIIODevice: Sendable {
    /// The kernel id: "iio:device0".
    public var id: String
    /// The `name` file: "mpu6050".
    public var name: String
    /// The `label` file, when the firmware gives one.
    public var label: String?
    /// Parent in /sys/devices (the bus device the driver bound to).
    public var parent: String
    public var channels: [MockIIOChannel]
    /// Files in the device directory, by relative path: "sampling_frequency",
    /// "current_timestamp_clock", "in_accel_scale", "mount_matrix", …
    public var attributes: [String: String]
    /// `buffer/length`, `buffer/watermark`, `buffer/enable`; nil: no `buffer/` directory.
    public var buffer: (length: Int, watermark: Int, enabled: Bool)?
    /// `trigger/current_trigger` (empty: none set); nil: the device takes no trigger.
    public var currentTrigger: String?
    /// `dev=MAJ:MIN`; nil: no device node (a driver without buffer support,
    /// or udev not having made it).
    public var deviceNumber: (major: Int, minor: Int)?
    /// Its data-ready trigger, added with the device.
    public var trigger: MockIIOTrigger?

    public init(id: String = "iio:device0", name: String, label: String? = nil,
                parent: String = "/devices/platform/soc/fe804000.i2c/i2c-1/1-0068",
                channels: [MockIIOChannel] = [], attributes: [String: String] = [:],
                buffer: (length: Int, watermark: Int, enabled: Bool)? = (length: 1, watermark: 1, enabled: false),
                currentTrigger: String? = "", deviceNumber: (major: Int, minor: Int)? = (241, 0),
                trigger: MockIIOTrigger? = nil) {
        self.id = id
        self.name = name
        self.label = label
        self.parent = parent
        self.channels = channels
        self.attributes = attributes
        self.buffer = buffer
        self.currentTrigger = currentTrigger
        self.deviceNumber = deviceNumber
        self.trigger = trigger
    }

    /// "/sys/devices/…/iio:device0": where umockdev puts it.
    public var sysfsDevicePath: String { "/sys\(parent)/\(id)" }
    /// "/sys/bus/iio/devices/iio:device0": where libiio looks for it.
    public var sysfsPath: String { "/sys/bus/iio/devices/\(id)" }
    /// "/dev/iio:device0".
    public var devicePath: String { "/dev/\(id)" }

    /// Every file, by path relative to the device directory, with its value
    /// (without the trailing newline, which the description adds).
    public var files: [(path: String, value: String)] {
        var files: [(String, String)] = [("name", name)]
        if let label { files.append(("label", label)) }
        if let deviceNumber { files.append(("dev", "\(deviceNumber.major):\(deviceNumber.minor)")) }
        files += attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for channel in channels { files += channel.files }
        if let buffer {
            files += [("buffer/enable", buffer.enabled ? "1" : "0"), ("buffer/length", String(buffer.length)),
                      ("buffer/watermark", String(buffer.watermark))]
        }
        if let currentTrigger { files.append(("trigger/current_trigger", currentTrigger)) }
        return files
    }

    /// The umockdev text description of the device.
    public var umockdevDescription: String {
        var lines = ["P: \(parent)/\(id)"]
        if deviceNumber != nil {
            lines += ["N: \(id)", "E: DEVNAME=/dev/\(id)"]
        }
        lines += ["E: DEVTYPE=iio_device", "E: SUBSYSTEM=iio"]
        if let deviceNumber { lines += ["E: MAJOR=\(deviceNumber.major)", "E: MINOR=\(deviceNumber.minor)"] }
        // Every value ends in a newline as the kernel writes it, except an
        // unset trigger: the kernel writes nothing at all there (seen on the
        // real drivers in the qemu tier), which libiio 0.24 reads as EIO.
        lines += files.map { file in
            let end = file.path == "trigger/current_trigger" && file.value.isEmpty ? "" : "\\n"
            return "A: \(file.path)=\(umockdevEscaped(file.value))\(end)"
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// One channel of a `MockIIODevice`.
public struct MockIIOChannel: Sendable {
    /// "in" or "out".
    public var direction: String
    /// The kernel's type name: "accel", "anglvel", "temp", "timestamp", "voltage0".
    public var type: String
    /// The modifier: "x", "y", "z"; nil for none.
    public var modifier: String?
    /// Its scan element: index and `_type` text; nil when it is not one.
    public var scan: (index: Int, format: String, enabled: Bool)?
    /// Per-channel attribute files by short name ("raw" → `in_accel_x_raw`).
    public var attributes: [String: String]

    public init(direction: String = "in", type: String, modifier: String? = nil,
                scan: (index: Int, format: String, enabled: Bool)? = nil, attributes: [String: String] = [:]) {
        self.direction = direction
        self.type = type
        self.modifier = modifier
        self.scan = scan
        self.attributes = attributes
    }

    /// "accel_x", "temp": libiio's channel id.
    public var id: String { modifier.map { "\(type)_\($0)" } ?? type }

    /// A scan-element channel with a `raw` value: `.scanElement("accel", "x", index: 0, format: "be:s16/16>>0")`.
    public static func scanElement(_ type: String, _ modifier: String? = nil, index: Int, format: String,
                                   raw: String? = "0", attributes: [String: String] = [:]) -> MockIIOChannel {
        var attributes = attributes
        if let raw { attributes["raw"] = raw }
        return MockIIOChannel(type: type, modifier: modifier, scan: (index, format, false), attributes: attributes)
    }

    /// The kernel's 64-bit timestamp channel (no attributes of its own).
    public static func timestamp(index: Int) -> MockIIOChannel {
        MockIIOChannel(type: "timestamp", scan: (index, "le:s64/64>>0", false))
    }

    var files: [(path: String, value: String)] {
        let prefix = "\(direction)_\(id)"
        var files = attributes.sorted { $0.key < $1.key }.map { ("\(prefix)_\($0.key)", $0.value) }
        if let scan {
            files += [("scan_elements/\(prefix)_en", scan.enabled ? "1" : "0"),
                      ("scan_elements/\(prefix)_index", String(scan.index)),
                      ("scan_elements/\(prefix)_type", scan.format)]
        }
        return files
    }
}

/// A fake IIO trigger device (`triggerN`): a data-ready trigger, an hrtimer.
public struct MockIIOTrigger: Sendable {
    public var id: String
    public var name: String
    public var parent: String
    public var attributes: [String: String]

    public init(id: String = "trigger0", name: String, parent: String = "/devices/platform/soc/fe804000.i2c/i2c-1/1-0068",
                attributes: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.parent = parent
        self.attributes = attributes
    }

    public var sysfsPath: String { "/sys/bus/iio/devices/\(id)" }

    public var umockdevDescription: String {
        var lines = ["P: \(parent)/\(id)", "E: SUBSYSTEM=iio", "A: name=\(umockdevEscaped(name))\\n"]
        lines += attributes.sorted { $0.key < $1.key }.map { "A: \($0.key)=\(umockdevEscaped($0.value))\\n" }
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// Escapes an attribute value for a umockdev description (C escapes).
func umockdevEscaped(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 32 || scalar.value == 127:
            let octal = String(scalar.value, radix: 8)
            out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
