// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev

/// An event type (`EV_*`): the first half of what an event is.
public struct EvdevEventType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Frame markers: SYN_REPORT ends a frame, SYN_DROPPED says events were lost.
    public static let syn = EvdevEventType(rawValue: UInt16(EV_SYN))
    /// Keys and buttons: value 1 pressed, 0 released, 2 autorepeat.
    public static let key = EvdevEventType(rawValue: UInt16(EV_KEY))
    public static let rel = EvdevEventType(rawValue: UInt16(EV_REL))
    /// Absolute axes: sticks, hats, and a motion sensor's acceleration and angular velocity.
    public static let abs = EvdevEventType(rawValue: UInt16(EV_ABS))
    /// Miscellaneous: MSC_TIMESTAMP, the device's own µs clock.
    public static let msc = EvdevEventType(rawValue: UInt16(EV_MSC))
    public static let sw = EvdevEventType(rawValue: UInt16(EV_SW))
    public static let led = EvdevEventType(rawValue: UInt16(EV_LED))
    public static let snd = EvdevEventType(rawValue: UInt16(EV_SND))
    public static let rep = EvdevEventType(rawValue: UInt16(EV_REP))
    public static let ff = EvdevEventType(rawValue: UInt16(EV_FF))

    /// The kernel's name, "EV_ABS". The corresponding C function is
    /// `libevdev_event_type_get_name`.
    public var description: String {
        libevdev_event_type_get_name(UInt32(rawValue)).map { String(cString: $0) } ?? "EV_\(rawValue)"
    }

    /// The largest code of this type, or nil for a type evdev does not
    /// know. The corresponding C function is `libevdev_event_type_get_max`.
    public var maximumCode: UInt16? {
        let max = libevdev_event_type_get_max(UInt32(rawValue))
        return max < 0 ? nil : UInt16(max)
    }
}
