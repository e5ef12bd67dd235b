// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev

/// What a device can send: event types, codes, and each absolute axis' range.
extension EvdevDevice {
    /// Whether the device sends events of `type` (EV_SYN always).
    /// The corresponding C function is `libevdev_has_event_type`.
    public func hasEventType(_ type: EvdevEventType) -> Bool {
        libevdev_has_event_type(handle, UInt32(type.rawValue)) == 1
    }

    /// Whether the device sends `code` of `type` (e.g. `.abs`, `EvdevCode.absRX`).
    /// The corresponding C function is `libevdev_has_event_code`.
    public func hasEvent(type: EvdevEventType, code: UInt16) -> Bool {
        libevdev_has_event_code(handle, UInt32(type.rawValue), UInt32(code)) == 1
    }

    /// Every code of `type` the device sends, in increasing order.
    public func eventCodes(of type: EvdevEventType) -> [UInt16] {
        guard hasEventType(type), let max = type.maximumCode else { return [] }
        return (0...max).filter { hasEvent(type: type, code: $0) }
    }

    /// The event types the device sends, EV_SYN first.
    public var eventTypes: [EvdevEventType] {
        (0...UInt16(EV_MAX)).map(EvdevEventType.init(rawValue:)).filter(hasEventType)
    }

    /// An absolute axis' value, range, fuzz, flat and resolution, or nil
    /// when the device has no such axis. The corresponding C function is
    /// `libevdev_get_abs_info`.
    public func absInfo(_ code: UInt16) -> EvdevAbsInfo? {
        guard let info = libevdev_get_abs_info(handle, UInt32(code)) else { return nil }
        let i = info.pointee
        return EvdevAbsInfo(value: i.value, minimum: i.minimum, maximum: i.maximum, fuzz: i.fuzz, flat: i.flat,
                            resolution: i.resolution)
    }

    /// The current value of `code` as libevdev tracks it from the events read
    /// (an axis' value, 1 for a key held down), or nil when the device has no
    /// such code or libevdev tracks no state for its type.
    /// The corresponding C function is `libevdev_fetch_event_value`.
    public func currentValue(type: EvdevEventType, code: UInt16) -> Int32? {
        guard type == .abs || type == .key || type == .led || type == .sw else { return nil }
        var value: Int32 = 0
        return libevdev_fetch_event_value(handle, UInt32(type.rawValue), UInt32(code), &value) == 1 ? value : nil
    }
}
