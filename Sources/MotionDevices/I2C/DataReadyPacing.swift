// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// When to look at a chip's data-ready bit, and what time a new sample
/// stands for, for a chip with no FIFO in use and no timestamp of its own
/// (the LSM9DS1 read over i2c-dev). Pure: the caller reads the clock and
/// the status register.
///
/// The chip makes a sample every `period` and keeps only the newest; its
/// status bit says a sample is new and clears when it is read. So no sample
/// is ever read twice (the bit says so), and one can be lost only when two
/// looks are a whole period or more apart: the schedule keeps its looks
/// closer than that (the first seven eighths of a period after a sample,
/// then every eighth), and a look that comes late all the same (the thread
/// was not scheduled) counts the samples that certainly came and went
/// meanwhile in `missed`.
///
/// On time, a sample takes two looks: the one seven eighths in finds
/// nothing, the next finds it (the read keeps its phase, within an eighth
/// after the sample came). A chip whose clock runs up to an eighth fast is
/// found by the first look instead.
public struct DataReadyPacing: Sendable {
    /// Nanoseconds between the chip's samples.
    public let period: Int64
    /// Samples that certainly arrived and were overwritten unread: the whole
    /// periods, but one, of each gap between two looks (a lower bound: a gap
    /// of between one and two periods may or may not have lost one).
    public private(set) var missed = 0
    private var lastLook: Int64?
    private var lastTimestamp: Int64?

    public init(period: Int64) {
        precondition(period > 0, "a period must be positive")
        self.period = period
    }

    /// Records a look at `now` and whether a new sample was ready; returns
    /// the time that sample stands for, nil when there was none.
    ///
    /// The time is where the chip's own clock puts it: a period after the
    /// last one, kept inside the span in which the sample must have
    /// arrived (after the previous look, at the latest now). On time, the
    /// samples lie on an even grid whatever the looks' jitter; a chip whose
    /// clock runs slow or fast pulls the grid along.
    public mutating func look(at now: Int64, ready: Bool) -> Int64? {
        let previous = lastLook
        lastLook = now
        if let previous, now - previous >= 2 * period {
            missed += Int((now - previous) / period) - 1
        }
        guard ready else { return nil }
        var time = lastTimestamp.map { $0 + period } ?? now
        if let previous { time = max(time, previous + 1) }
        time = min(time, now)
        lastTimestamp = time
        return time
    }

    /// When to look next after a look at `now` that found a sample or not.
    public func nextLook(after now: Int64, found: Bool) -> Int64 {
        found ? now + period * 7 / 8 : now + period / 8
    }
}
