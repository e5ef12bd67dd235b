// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev

/// One input event: type, code, value and the time the kernel stamped it
/// with (on the reader's clock, see `EvdevDevice.setClock`).
///
/// A plain value of 16 bytes, so a buffer of them can be filled on the
/// read path without allocating.
public struct EvdevEvent: Sendable, Hashable, CustomStringConvertible {
    public var type: EvdevEventType
    public var code: UInt16
    public var value: Int32
    /// The event time in nanoseconds (the kernel's µs resolution × 1000).
    public var time: Int64

    public init(type: EvdevEventType, code: UInt16, value: Int32, time: Int64) {
        self.type = type
        self.code = code
        self.value = value
        self.time = time
    }

    /// From the C `struct input_event`.
    init(_ event: input_event) {
        type = EvdevEventType(rawValue: event.type)
        code = event.code
        value = event.value
        time = Int64(event.time.tv_sec) * 1_000_000_000 + Int64(event.time.tv_usec) * 1000
    }

    /// EV_SYN/SYN_REPORT: the end of a frame.
    public var isSynReport: Bool { type == .syn && code == EvdevCode.synReport }

    /// "12.000500 EV_ABS ABS_RX 1024", much as evtest prints it.
    public var description: String {
        let usec = String(time % 1_000_000_000 / 1000)
        let codeName = EvdevCode.name(type: type, code: code) ?? String(code)
        return "\(time / 1_000_000_000).\(String(repeating: "0", count: 6 - usec.count))\(usec) \(type) \(codeName) \(value)"
    }
}
