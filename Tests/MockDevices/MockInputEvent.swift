// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// One `struct input_event` as the kernel's evdev hands it to a reader:
/// time (seconds and microseconds), type, code, value.
///
/// `bytes` lays it out as the C struct on this machine: `long` seconds,
/// `long` microseconds (8 + 8 bytes on 64-bit, 4 + 4 on 32-bit), then
/// `__u16 type`, `__u16 code`, `__s32 value`, in host byte order.
public struct MockInputEvent: Sendable, Equatable, CustomStringConvertible {
    public var seconds: Int
    public var microseconds: Int
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: Int = 0, microseconds: Int = 0, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// An event at `time` nanoseconds (rounded down to the microsecond, as
    /// the kernel's timeval has it).
    public init(nanoseconds time: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.init(seconds: Int(time / 1_000_000_000), microseconds: Int(time % 1_000_000_000 / 1000),
                  type: type, code: code, value: value)
    }

    /// The event time in nanoseconds.
    public var nanoseconds: Int64 { Int64(seconds) * 1_000_000_000 + Int64(microseconds) * 1000 }

    /// The size of `struct input_event` here: 24 bytes on 64-bit Linux.
    public static var size: Int { 2 * MemoryLayout<Int>.size + 8 }

    /// The bytes of the C struct.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        withUnsafeBytes(of: seconds) { out += $0 }
        withUnsafeBytes(of: microseconds) { out += $0 }
        withUnsafeBytes(of: type) { out += $0 }
        withUnsafeBytes(of: code) { out += $0 }
        withUnsafeBytes(of: value) { out += $0 }
        return out
    }

    public var description: String {
        let usec = String(microseconds)
        return "\(seconds).\(String(repeating: "0", count: max(0, 6 - usec.count)))\(usec) type \(type) code \(code) value \(value)"
    }

    // Builders, so a test reads like the stream a driver sends.

    /// An EV_ABS event.
    public static func abs(_ code: UInt16, _ value: Int32, at time: Int64) -> MockInputEvent {
        MockInputEvent(nanoseconds: time, type: LinuxInput.EV_ABS, code: code, value: value)
    }

    /// An EV_KEY event (1 pressed, 0 released, 2 repeat).
    public static func key(_ code: UInt16, _ value: Int32, at time: Int64) -> MockInputEvent {
        MockInputEvent(nanoseconds: time, type: LinuxInput.EV_KEY, code: code, value: value)
    }

    /// EV_MSC/MSC_TIMESTAMP: the device's own clock in µs (wraps at 2^32).
    public static func mscTimestamp(_ microseconds: UInt32, at time: Int64) -> MockInputEvent {
        MockInputEvent(nanoseconds: time, type: LinuxInput.EV_MSC, code: LinuxInput.MSC_TIMESTAMP,
                       value: Int32(bitPattern: microseconds))
    }

    /// EV_SYN/SYN_REPORT: the end of one frame.
    public static func synReport(at time: Int64) -> MockInputEvent {
        MockInputEvent(nanoseconds: time, type: LinuxInput.EV_SYN, code: LinuxInput.SYN_REPORT, value: 0)
    }

    /// EV_SYN/SYN_DROPPED: what the kernel puts in a client's queue when it overflowed.
    public static func synDropped(at time: Int64) -> MockInputEvent {
        MockInputEvent(nanoseconds: time, type: LinuxInput.EV_SYN, code: LinuxInput.SYN_DROPPED, value: 0)
    }

    /// One motion-sensor frame as hid-playstation and hid-nintendo send it:
    /// ABS_X/Y/Z, ABS_RX/RY/RZ, MSC_TIMESTAMP (when given), SYN_REPORT.
    public static func motionFrame(accel: (Int32, Int32, Int32), gyro: (Int32, Int32, Int32)?,
                                   deviceMicroseconds: UInt32?, at time: Int64) -> [MockInputEvent] {
        var frame: [MockInputEvent] = [
            .abs(LinuxInput.ABS_X, accel.0, at: time), .abs(LinuxInput.ABS_Y, accel.1, at: time),
            .abs(LinuxInput.ABS_Z, accel.2, at: time),
        ]
        if let gyro {
            frame += [.abs(LinuxInput.ABS_RX, gyro.0, at: time), .abs(LinuxInput.ABS_RY, gyro.1, at: time),
                      .abs(LinuxInput.ABS_RZ, gyro.2, at: time)]
        }
        if let deviceMicroseconds { frame.append(.mscTimestamp(deviceMicroseconds, at: time)) }
        frame.append(.synReport(at: time))
        return frame
    }
}
