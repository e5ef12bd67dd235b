// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev

/// Event codes TiltMaze reads, named, so callers need not import the C
/// headers. Any other code is its number from <linux/input-event-codes.h>.
public enum EvdevCode {
    // EV_SYN
    public static let synReport = UInt16(SYN_REPORT)
    public static let synDropped = UInt16(SYN_DROPPED)

    // EV_ABS: a motion sensor's acceleration (X/Y/Z) and angular velocity (RX/RY/RZ);
    // a gamepad's sticks, triggers and D-pad hat.
    public static let absX = UInt16(ABS_X)
    public static let absY = UInt16(ABS_Y)
    public static let absZ = UInt16(ABS_Z)
    public static let absRX = UInt16(ABS_RX)
    public static let absRY = UInt16(ABS_RY)
    public static let absRZ = UInt16(ABS_RZ)
    public static let absHat0X = UInt16(ABS_HAT0X)
    public static let absHat0Y = UInt16(ABS_HAT0Y)

    // EV_MSC
    public static let mscTimestamp = UInt16(MSC_TIMESTAMP)

    // EV_KEY: keys (the Raspberry Pi kernel's Sense HAT joystick) …
    public static let keyUp = UInt16(KEY_UP)
    public static let keyDown = UInt16(KEY_DOWN)
    public static let keyLeft = UInt16(KEY_LEFT)
    public static let keyRight = UInt16(KEY_RIGHT)
    public static let keyEnter = UInt16(KEY_ENTER)
    public static let keyEsc = UInt16(KEY_ESC)
    // … and gamepad buttons (mainline's Sense HAT joystick uses the D-pad ones and BTN_SELECT).
    public static let buttonSouth = UInt16(BTN_SOUTH)
    public static let buttonEast = UInt16(BTN_EAST)
    public static let buttonNorth = UInt16(BTN_NORTH)
    public static let buttonWest = UInt16(BTN_WEST)
    public static let buttonSelect = UInt16(BTN_SELECT)
    public static let buttonStart = UInt16(BTN_START)
    public static let buttonMode = UInt16(BTN_MODE)
    public static let buttonDpadUp = UInt16(BTN_DPAD_UP)
    public static let buttonDpadDown = UInt16(BTN_DPAD_DOWN)
    public static let buttonDpadLeft = UInt16(BTN_DPAD_LEFT)
    public static let buttonDpadRight = UInt16(BTN_DPAD_RIGHT)

    /// The kernel's name of a code, "ABS_RX", "BTN_SOUTH", or nil when it
    /// has none. The corresponding C function is `libevdev_event_code_get_name`.
    public static func name(type: EvdevEventType, code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(code)).map { String(cString: $0) }
    }
}
