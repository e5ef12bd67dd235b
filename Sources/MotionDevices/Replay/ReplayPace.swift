// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// A recording let through at its own pace: each sample waits until as
/// long has passed since the first as its timestamp says (`monitor --json
/// --realtime`), its timestamp kept as recorded. Sleeps to absolute
/// deadlines from the first sample, so the error does not accumulate.
public struct ReplayPace {
    private let now: () -> Int64
    private let sleep: (Int64) -> Void
    /// The clock when the first sample went, and that sample's timestamp.
    private var origin: (clock: Int64, recorded: Int64)?

    /// - Parameters: `now` and `sleep` (until a monotonic deadline, ns): the clock's, or a test's.
    public init(now: @escaping () -> Int64 = MonotonicClock.now,
                sleep: @escaping (Int64) -> Void = MonotonicClock.sleep(until:)) {
        self.now = now
        self.sleep = sleep
    }

    /// Returns when the sample stamped `timestamp` (ns) is due; the first at once.
    public mutating func wait(for timestamp: Int64) {
        guard let origin else {
            origin = (now(), timestamp)
            return
        }
        let due = origin.clock + (timestamp - origin.recorded)
        if now() < due { sleep(due) }
    }
}
