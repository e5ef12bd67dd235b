// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A sensor's rate measured from its samples' own timestamps, over about a
/// second at a time: what `tiltmaze monitor` shows beside the nominal rate.
public struct SampleRateMeter: Sendable {
    private var windowStart: Int64?
    private var count = 0
    /// Samples per second over the last full window; nil until one has passed.
    public private(set) var rate: Double?

    public init() {}

    /// Counts a sample stamped `timestamp` (monotonic ns).
    public mutating func add(_ timestamp: Int64) {
        guard let start = windowStart else { windowStart = timestamp; return }
        count += 1
        let span = timestamp - start
        if span >= 1_000_000_000 {
            rate = Double(count) / (Double(span) / 1e9)
            windowStart = timestamp
            count = 0
        }
    }
}
