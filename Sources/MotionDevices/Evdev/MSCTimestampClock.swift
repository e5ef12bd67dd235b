// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
/// Turns a device's `MSC_TIMESTAMP` (microseconds on the controller's own
/// clock, 32 bits, wrapping about every 71 minutes) into `CLOCK_MONOTONIC`
/// nanoseconds.
///
/// The device clock gives the spacing of samples (the events themselves may
/// arrive batched, e.g. a Joy-Con's three samples per 15 ms report); the
/// first event's kernel time anchors it to the monotonic clock. If the two
/// clocks drift apart by more than `maxDrift`, the anchor is taken again so
/// sample times never wander away from the game's clock.
public struct MSCTimestampClock: Sendable {
    public static let maxDrift: Int64 = 50_000_000   // 50 ms
    private var lastRaw: UInt32?
    private var extendedMicroseconds: Int64 = 0
    private var offset: Int64 = 0   // monotonic ns - device ns

    public init() {}

    /// The monotonic time of a sample stamped `raw` whose report the kernel
    /// stamped `eventTime` (monotonic ns).
    public mutating func time(raw: Int32, eventTime: Int64) -> Int64 {
        let value = UInt32(bitPattern: raw)
        if let last = lastRaw {
            // Unsigned difference: correct across the 2^32 wrap.
            extendedMicroseconds += Int64(value &- last)
        } else {
            extendedMicroseconds = 0
            offset = eventTime
        }
        lastRaw = value
        var t = offset + extendedMicroseconds * 1_000
        if abs(t - eventTime) > Self.maxDrift {
            offset = eventTime - extendedMicroseconds * 1_000
            t = eventTime
        }
        return t
    }
}
