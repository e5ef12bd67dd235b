// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A fake evdev input device for a `Testbed`: what an input driver would
/// register, as sysfs, udev and the evdev ioctls show it.
///
/// `umockdevDescription` makes two sysfs devices, as the kernel does:
/// `<parent>/input/inputN` (the input device: `name`, `phys`, `uniq`,
/// `properties`, `capabilities/*`, `id/*`) and its child `eventN` with
/// `dev=13:(64+N)`, a `device` link to `inputN` (so
/// `/sys/class/input/eventN/device/name` works), and
/// `DEVNAME=/dev/input/eventN`, which umockdev makes into a pty. `Testbed.add(_:)` attaches a `MockEvdevIoctlHandler` that
/// answers libevdev's ioctls from the same description, so sysfs and the
/// ioctls agree.
public struct MockEvdevDevice: Sendable {
    /// N of `eventN`: the node is `/dev/input/eventN`.
    public var eventNumber: Int
    /// N of `inputN`, the input device in sysfs.
    public var inputNumber: Int
    /// The driver-given name (`EVIOCGNAME`, sysfs `name`).
    public var name: String
    /// Physical path (`EVIOCGPHYS`); nil: the driver set none, and
    /// `EVIOCGPHYS` fails with ENOENT as it does for uinput devices.
    public var phys: String?
    /// Unique id (`EVIOCGUNIQ`), e.g. a Bluetooth address; nil: none (ENOENT).
    public var uniq: String?
    /// `struct input_id` (`EVIOCGID`, sysfs `id/*`).
    public var id: MockInputID
    /// Input properties (`INPUT_PROP_*`, `EVIOCGPROP`, sysfs `properties`).
    public var properties: Set<UInt16>
    /// Event codes by event type (`EVIOCGBIT`, sysfs `capabilities/*`).
    /// EV_SYN is always present; the event types are the keys.
    public var codes: [UInt16: Set<UInt16>]
    /// `struct input_absinfo` of each EV_ABS code (`EVIOCGABS`); codes in
    /// `codes[EV_ABS]` without an entry answer all zeros.
    public var absInfo: [UInt16: MockAbsInfo]
    /// Key repeat delay and period in ms (`EVIOCGREP`); nil: no EV_REP.
    public var keyRepeat: (delay: Int32, period: Int32)?
    /// The sysfs parent of `input/inputN`: the HID, I2C or platform device.
    public var parent: String
    /// Udev properties of the event node beyond `DEVNAME`, `MAJOR`, `MINOR`
    /// and `SUBSYSTEM` (`ID_INPUT=1`, `ID_INPUT_ACCELEROMETER=1`, …).
    public var udevProperties: [String: String]

    public init(eventNumber: Int = 0, inputNumber: Int? = nil, name: String, phys: String? = nil,
                uniq: String? = nil, id: MockInputID = MockInputID(), properties: Set<UInt16> = [],
                codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: MockAbsInfo] = [:],
                keyRepeat: (delay: Int32, period: Int32)? = nil,
                parent: String = "/devices/virtual", udevProperties: [String: String] = ["ID_INPUT": "1"]) {
        self.eventNumber = eventNumber
        self.inputNumber = inputNumber ?? eventNumber
        self.name = name
        self.phys = phys
        self.uniq = uniq
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.keyRepeat = keyRepeat
        self.parent = parent
        self.udevProperties = udevProperties
    }

    /// "/dev/input/eventN".
    public var devicePath: String { "/dev/input/event\(eventNumber)" }
    /// "/sys/devices/…/input/inputN": the input device.
    public var sysfsInputPath: String { "/sys\(parent)/input/input\(inputNumber)" }
    /// "/sys/devices/…/input/inputN/eventN": the event node's device; what
    /// `Testbed.removeDevice(sysfsPath:)` removes to unplug it.
    public var sysfsEventPath: String { "\(sysfsInputPath)/event\(eventNumber)" }
    /// "/sys/class/input/eventN".
    public var sysfsClassPath: String { "/sys/class/input/event\(eventNumber)" }
    /// The node's `MAJOR:MINOR`: 13:(64+N).
    public var deviceNumber: (major: Int, minor: Int) {
        (LinuxInput.INPUT_MAJOR, LinuxInput.EVDEV_MINOR_BASE + eventNumber)
    }

    /// The event types it sends: EV_SYN, the types in `codes`, EV_REP with `keyRepeat`.
    public var eventTypes: Set<UInt16> {
        var types: Set<UInt16> = [LinuxInput.EV_SYN]
        types.formUnion(codes.keys)
        if keyRepeat != nil { types.insert(LinuxInput.EV_REP) }
        return types
    }

    /// Whether it sends `code` of `type` (EV_SYN codes always).
    public func has(type: UInt16, code: UInt16) -> Bool {
        type == LinuxInput.EV_SYN || codes[type]?.contains(code) == true
    }

    /// The capability bitmap of an event type (type 0: the event types), as
    /// 64-bit words, lowest first; nil for a type evdev has no bitmap for.
    public func bitmap(of type: UInt16) -> [UInt64]? {
        if type == 0 { return Self.bitmap(eventTypes, maxBit: LinuxInput.EV_MAX) }
        guard let max = LinuxInput.maxCode(of: type) else { return nil }
        return Self.bitmap(codes[type] ?? [], maxBit: max)
    }

    /// The property bitmap (`INPUT_PROP_*`).
    public var propertyBitmap: [UInt64] { Self.bitmap(properties, maxBit: LinuxInput.INPUT_PROP_MAX) }

    /// Bits set in 64-bit words: enough words for bits 0…maxBit.
    static func bitmap(_ bits: Set<UInt16>, maxBit: UInt16) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: Int(maxBit) / 64 + 1)
        for bit in bits where bit <= maxBit { words[Int(bit) / 64] |= 1 << UInt64(bit % 64) }
        return words
    }

    /// A bitmap as the kernel prints it in sysfs and uevents
    /// (`input_print_bitmap`): words of `unsigned long` in hex, highest
    /// first, leading zero words left out, "0" when empty.
    public static func sysfsBitmapText(_ words: [UInt64]) -> String {
        var parts: [String] = []
        for word in words.reversed() {
            if parts.isEmpty && word == 0 { continue }
            parts.append(String(word, radix: 16))
        }
        return parts.isEmpty ? "0" : parts.joined(separator: " ")
    }

    /// Every sysfs file of the input device, by path relative to `inputN`.
    public var inputFiles: [(path: String, value: String)] {
        var files: [(String, String)] = [
            ("name", name), ("phys", phys ?? ""), ("uniq", uniq ?? ""),
            ("properties", Self.sysfsBitmapText(propertyBitmap)),
            ("capabilities/ev", Self.sysfsBitmapText(bitmap(of: 0)!)),
        ]
        for type in [LinuxInput.EV_KEY, LinuxInput.EV_REL, LinuxInput.EV_ABS, LinuxInput.EV_MSC, LinuxInput.EV_SW,
                     LinuxInput.EV_LED, LinuxInput.EV_SND, LinuxInput.EV_FF] {
            if let file = LinuxInput.capabilityFileName(of: type), let words = bitmap(of: type) {
                files.append(("capabilities/\(file)", Self.sysfsBitmapText(words)))
            }
        }
        files += [("id/bustype", hex4(id.bustype)), ("id/vendor", hex4(id.vendor)),
                  ("id/product", hex4(id.product)), ("id/version", hex4(id.version))]
        return files
    }

    /// The udev properties the kernel's uevent gives the input device
    /// (`PRODUCT`, `NAME`, `PHYS`, `UNIQ`, `PROP`, `EV`, per-type bitmaps).
    var inputUeventProperties: [(String, String)] {
        var props: [(String, String)] = [
            ("PRODUCT", "\(String(id.bustype, radix: 16))/\(String(id.vendor, radix: 16))/"
                + "\(String(id.product, radix: 16))/\(String(id.version, radix: 16))"),
            ("NAME", "\"\(name)\""),
        ]
        if let phys { props.append(("PHYS", "\"\(phys)\"")) }
        if let uniq { props.append(("UNIQ", "\"\(uniq)\"")) }
        props.append(("PROP", Self.sysfsBitmapText(propertyBitmap)))
        props.append(("EV", Self.sysfsBitmapText(bitmap(of: 0)!)))
        let names: [(UInt16, String)] = [(LinuxInput.EV_KEY, "KEY"), (LinuxInput.EV_REL, "REL"), (LinuxInput.EV_ABS, "ABS"),
                                         (LinuxInput.EV_MSC, "MSC"), (LinuxInput.EV_SW, "SW"), (LinuxInput.EV_LED, "LED"),
                                         (LinuxInput.EV_SND, "SND"), (LinuxInput.EV_FF, "FF")]
        for (type, key) in names where !(codes[type] ?? []).isEmpty {
            props.append((key, Self.sysfsBitmapText(bitmap(of: type)!)))
        }
        return props
    }

    /// The umockdev text description: the input device, then its event node.
    public var umockdevDescription: String {
        var input = ["P: \(parent)/input/input\(inputNumber)", "E: SUBSYSTEM=input"]
        input += inputUeventProperties.map { "E: \($0.0)=\($0.1)" }
        input += udevProperties.sorted { $0.key < $1.key }.map { "E: \($0.key)=\($0.value)" }
        input += inputFiles.map { "A: \($0.path)=\(umockdevEscaped($0.value))\\n" }

        let (major, minor) = deviceNumber
        var event = ["P: \(parent)/input/input\(inputNumber)/event\(eventNumber)",
                     "N: input/event\(eventNumber)",
                     "E: DEVNAME=\(devicePath)", "E: SUBSYSTEM=input",
                     "E: MAJOR=\(major)", "E: MINOR=\(minor)"]
        event += udevProperties.sorted { $0.key < $1.key }.map { "E: \($0.key)=\($0.value)" }
        event += ["A: dev=\(major):\(minor)\\n", "L: device=../../input\(inputNumber)"]
        return input.joined(separator: "\n") + "\n\n" + event.joined(separator: "\n") + "\n\n"
    }

    private func hex4(_ v: UInt16) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// `struct input_id`.
public struct MockInputID: Sendable, Equatable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16 = LinuxInput.BUS_VIRTUAL, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// `struct input_absinfo`: what `EVIOCGABS` answers for one axis.
public struct MockAbsInfo: Sendable, Equatable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// The 24 bytes of the C struct, in host byte order.
    public var bytes: [UInt8] {
        [value, minimum, maximum, fuzz, flat, resolution].flatMap { v in
            withUnsafeBytes(of: v) { Array($0) }
        }
    }
}
