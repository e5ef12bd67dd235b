// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The clock evdev stamps a reader's events with (`EVIOCSCLOCKID`).
/// The kernel default is `CLOCK_REALTIME`, which jumps when the wall clock
/// is set; TiltMaze wants `.monotonic`.
public struct EvdevClock: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `clockid_t`.
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let realtime = EvdevClock(rawValue: CLOCK_REALTIME)
    public static let monotonic = EvdevClock(rawValue: CLOCK_MONOTONIC)
    public static let boottime = EvdevClock(rawValue: CLOCK_BOOTTIME)

    public var description: String {
        switch self {
        case .realtime: return "CLOCK_REALTIME"
        case .monotonic: return "CLOCK_MONOTONIC"
        case .boottime: return "CLOCK_BOOTTIME"
        default: return "clock \(rawValue)"
        }
    }
}
