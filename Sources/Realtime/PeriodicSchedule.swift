// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The deadlines of a loop that runs every `period` on the monotonic clock:
/// sleep to `deadline` (absolute, so error never accumulates), then `woke(at:)`.
///
/// A wake-up late by more than `maxCatchUp` periods (a stall: a debugger, a
/// suspended process, a starved core) skips the periods missed rather than
/// running them back to back, and counts them. It skips whole periods, so
/// the deadlines keep their phase: a sensor stamping samples with its
/// deadlines stays on one grid.
public struct PeriodicSchedule: Sendable {
    /// Nanoseconds between deadlines.
    public let period: Int64
    /// How many periods late a wake-up may be and still run the periods
    /// missed one after another.
    public let maxCatchUp: Int
    /// The next time to wake, monotonic ns.
    public private(set) var deadline: Int64
    /// Periods skipped after stalls.
    public private(set) var skippedPeriods: UInt64 = 0

    /// - Parameters:
    ///   - period: nanoseconds, positive.
    ///   - start: when the first period begins; the first deadline is one period later.
    public init(period: Int64, start: Int64, maxCatchUp: Int = 8) {
        precondition(period > 0, "a period must be positive")
        precondition(maxCatchUp >= 0, "maxCatchUp must not be negative")
        self.period = period
        self.maxCatchUp = maxCatchUp
        deadline = start &+ period
    }

    /// Moves on to the next deadline after waking at `now` for the current
    /// one; returns how late the wake-up was (negative if early).
    @discardableResult
    public mutating func woke(at now: Int64) -> Int64 {
        let lateness = now &- deadline
        deadline &+= period
        let behind = now &- deadline
        if behind > Int64(maxCatchUp) &* period {
            let missed = behind / period + 1
            deadline &+= missed &* period
            skippedPeriods &+= UInt64(missed)
        }
        return lateness
    }
}
