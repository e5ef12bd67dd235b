// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// An ioctl request number taken apart with the asm-generic `_IOC` layout:
/// `direction << 30 | size << 16 | type << 8 | number` (x86_64, arm, arm64).
///
/// Evdev's requests have type `'E'`; the number says which call, and for
/// the "get" calls the size is the caller's buffer (`EVIOCGNAME(len)`,
/// `EVIOCGBIT(ev, len)`), so one call comes in several sizes.
public struct EvdevIoctlRequest: Sendable, Equatable, CustomStringConvertible {
    public var rawValue: UInt

    public init(_ rawValue: UInt) { self.rawValue = rawValue & 0xffff_ffff }

    /// `_IOC_NONE` 0, `_IOC_WRITE` 1 (the caller passes data in), `_IOC_READ` 2 (the caller wants data back).
    public var direction: UInt { (rawValue >> 30) & 0x3 }
    /// The size of the caller's buffer.
    public var size: Int { Int((rawValue >> 16) & 0x3fff) }
    /// The ioctl type: `'E'` (0x45) for evdev.
    public var type: UInt8 { UInt8((rawValue >> 8) & 0xff) }
    /// The request number within its type.
    public var number: UInt8 { UInt8(rawValue & 0xff) }

    public var isEvdev: Bool { type == 0x45 }

    /// A request number: `_IOC(direction, 'E', number, size)`.
    public static func make(direction: UInt, number: UInt8, size: Int) -> EvdevIoctlRequest {
        EvdevIoctlRequest(direction << 30 | UInt(size) << 16 | 0x45 << 8 | UInt(number))
    }

    /// The kernel's name for the request, with its argument: "EVIOCGBIT(EV_ABS, 8)", "EVIOCGABS(ABS_RX)".
    public var name: String {
        guard isEvdev else { return "ioctl 0x\(hex(rawValue)) (type 0x\(hex(UInt(type))), not evdev)" }
        let n = number
        switch n {
        case 0x01: return "EVIOCGVERSION"
        case 0x02: return "EVIOCGID"
        case 0x03: return direction == 1 ? "EVIOCSREP" : "EVIOCGREP"
        case 0x04: return "EVIOCGKEYCODE"
        case 0x05: return "EVIOCGKEYCODE_V2"
        case 0x06: return "EVIOCGNAME(\(size))"
        case 0x07: return "EVIOCGPHYS(\(size))"
        case 0x08: return "EVIOCGUNIQ(\(size))"
        case 0x09: return "EVIOCGPROP(\(size))"
        case 0x0a: return "EVIOCGMTSLOTS(\(size))"
        case 0x18: return "EVIOCGKEY(\(size))"
        case 0x19: return "EVIOCGLED(\(size))"
        case 0x1a: return "EVIOCGSND(\(size))"
        case 0x1b: return "EVIOCGSW(\(size))"
        case 0x20...0x3f: return "EVIOCGBIT(\(Self.typeName(UInt16(n - 0x20))), \(size))"
        case 0x40...0x7f where direction == 2: return "EVIOCGABS(\(Self.absName(UInt16(n - 0x40))))"
        case 0x80: return "EVIOCSFF"
        case 0x81: return "EVIOCRMFF"
        case 0x84: return "EVIOCGEFFECTS"
        case 0x90: return "EVIOCGRAB"
        case 0x91: return "EVIOCREVOKE"
        case 0x92: return "EVIOCGMASK"
        case 0x93: return "EVIOCSMASK"
        case 0xa0: return "EVIOCSCLOCKID"
        case 0xc0...0xff where direction == 1: return "EVIOCSABS(\(Self.absName(UInt16(n - 0xc0))))"
        default: return "EVIOC? nr 0x\(hex(UInt(n))) dir \(direction) size \(size)"
        }
    }

    public var description: String { name }

    /// "EV_ABS", or the number for a type without a name here.
    static func typeName(_ type: UInt16) -> String {
        let names: [UInt16: String] = [0: "0", 0x01: "EV_KEY", 0x02: "EV_REL", 0x03: "EV_ABS", 0x04: "EV_MSC",
                                       0x05: "EV_SW", 0x11: "EV_LED", 0x12: "EV_SND", 0x14: "EV_REP", 0x15: "EV_FF",
                                       0x16: "EV_PWR", 0x17: "EV_FF_STATUS"]
        return names[type] ?? "\(type)"
    }

    /// "ABS_X", or "ABS 0x2f" for codes without a name here.
    static func absName(_ code: UInt16) -> String {
        let names: [UInt16: String] = [0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x03: "ABS_RX", 0x04: "ABS_RY",
                                       0x05: "ABS_RZ", 0x10: "ABS_HAT0X", 0x11: "ABS_HAT0Y", 0x2f: "ABS_MT_SLOT"]
        return names[code] ?? "ABS 0x\(hex(UInt(code)))"
    }
}

/// Lower-case hexadecimal digits of `value`, at least two.
func hex(_ value: UInt) -> String {
    let digits = String(value, radix: 16)
    return digits.count < 2 ? "0" + digits : digits
}
