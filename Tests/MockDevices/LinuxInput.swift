// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Numbers from the kernel's input ABI (<linux/input.h>,
/// <linux/input-event-codes.h>) that the mock evdev devices use.
///
/// Written out here rather than imported, so a mock states what the kernel
/// would say without borrowing from the code under test; `EvdevTests`
/// checks every one against the C headers.
public enum LinuxInput {
    // Event types.
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_SW: UInt16 = 0x05
    public static let EV_LED: UInt16 = 0x11
    public static let EV_SND: UInt16 = 0x12
    public static let EV_REP: UInt16 = 0x14
    public static let EV_FF: UInt16 = 0x15
    public static let EV_MAX: UInt16 = 0x1f

    // EV_SYN codes.
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_DROPPED: UInt16 = 3

    // EV_ABS codes.
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_Z: UInt16 = 0x02
    public static let ABS_RX: UInt16 = 0x03
    public static let ABS_RY: UInt16 = 0x04
    public static let ABS_RZ: UInt16 = 0x05
    public static let ABS_HAT0X: UInt16 = 0x10
    public static let ABS_HAT0Y: UInt16 = 0x11
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MAX: UInt16 = 0x3f

    // EV_MSC codes.
    public static let MSC_TIMESTAMP: UInt16 = 0x05
    public static let MSC_MAX: UInt16 = 0x07

    // EV_KEY codes.
    public static let KEY_ENTER: UInt16 = 28
    public static let KEY_UP: UInt16 = 103
    public static let KEY_LEFT: UInt16 = 105
    public static let KEY_RIGHT: UInt16 = 106
    public static let KEY_DOWN: UInt16 = 108
    public static let BTN_SOUTH: UInt16 = 0x130
    public static let BTN_EAST: UInt16 = 0x131
    public static let BTN_NORTH: UInt16 = 0x133
    public static let BTN_WEST: UInt16 = 0x134
    public static let BTN_TL: UInt16 = 0x136
    public static let BTN_TR: UInt16 = 0x137
    public static let BTN_TL2: UInt16 = 0x138
    public static let BTN_TR2: UInt16 = 0x139
    public static let BTN_SELECT: UInt16 = 0x13a
    public static let BTN_START: UInt16 = 0x13b
    public static let BTN_MODE: UInt16 = 0x13c
    public static let BTN_THUMBL: UInt16 = 0x13d
    public static let BTN_THUMBR: UInt16 = 0x13e
    public static let BTN_DPAD_UP: UInt16 = 0x220
    public static let BTN_DPAD_DOWN: UInt16 = 0x221
    public static let BTN_DPAD_LEFT: UInt16 = 0x222
    public static let BTN_DPAD_RIGHT: UInt16 = 0x223
    public static let KEY_MAX: UInt16 = 0x2ff

    // Other code ranges (for bitmap sizes).
    public static let REL_MAX: UInt16 = 0x0f
    public static let SW_MAX: UInt16 = 0x10
    public static let LED_MAX: UInt16 = 0x0f
    public static let SND_MAX: UInt16 = 0x07
    public static let FF_MAX: UInt16 = 0x7f
    public static let FF_RUMBLE: UInt16 = 0x50
    public static let FF_PERIODIC: UInt16 = 0x51
    public static let FF_SQUARE: UInt16 = 0x58
    public static let FF_TRIANGLE: UInt16 = 0x59
    public static let FF_SINE: UInt16 = 0x5a
    public static let FF_GAIN: UInt16 = 0x60

    // EV_REP codes.
    public static let REP_DELAY: UInt16 = 0
    public static let REP_PERIOD: UInt16 = 1

    // Input properties.
    public static let INPUT_PROP_ACCELEROMETER: UInt16 = 0x06
    public static let INPUT_PROP_MAX: UInt16 = 0x1f

    // Bus types (struct input_id.bustype).
    public static let BUS_USB: UInt16 = 0x03
    public static let BUS_BLUETOOTH: UInt16 = 0x05
    public static let BUS_VIRTUAL: UInt16 = 0x06
    public static let BUS_I2C: UInt16 = 0x18
    public static let BUS_HOST: UInt16 = 0x19

    /// `EV_VERSION`, what `EVIOCGVERSION` answers.
    public static let EV_VERSION: Int32 = 0x010001

    /// The evdev character-device major, and the first `eventN` minor.
    public static let INPUT_MAJOR = 13
    public static let EVDEV_MINOR_BASE = 64

    /// The largest code of an event type: the size of its capability bitmap.
    public static func maxCode(of type: UInt16) -> UInt16? {
        switch type {
        case EV_SYN: return 0x0f // SYN_MAX
        case EV_KEY: return KEY_MAX
        case EV_REL: return REL_MAX
        case EV_ABS: return ABS_MAX
        case EV_MSC: return MSC_MAX
        case EV_SW: return SW_MAX
        case EV_LED: return LED_MAX
        case EV_SND: return SND_MAX
        case EV_REP: return 0x01 // REP_MAX
        case EV_FF: return FF_MAX
        default: return nil
        }
    }

    /// The name of a type's capability file under `capabilities/` in sysfs
    /// (the event types themselves are in `capabilities/ev`).
    static func capabilityFileName(of type: UInt16) -> String? {
        switch type {
        case EV_KEY: return "key"
        case EV_REL: return "rel"
        case EV_ABS: return "abs"
        case EV_MSC: return "msc"
        case EV_SW: return "sw"
        case EV_LED: return "led"
        case EV_SND: return "snd"
        case EV_FF: return "ff"
        default: return nil
        }
    }
}
