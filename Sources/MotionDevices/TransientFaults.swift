// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// How a sensor thread rides out a glitching bus.
///
/// Real I²C buses fail a transfer now and then: a marginal wire gives an
/// unacknowledged byte, a Pi 5 with a Sense HAT loses arbitration and then
/// times out. One such transfer must not end a game. So a sample's reads
/// are made again when they fail with a transient error
/// (`DeviceError.isTransient`), at most `retriesPerSample` times, all of
/// them from the first: a sample is pushed whole or not at all, never
/// assembled from reads of two different moments. A sample whose tries all
/// fail is dropped and counted. Only a device that has failed without a
/// break for `giveUpAfter` (it keeps failing, or it has gone) ends the source.
///
/// Nothing here allocates or makes a system call: where no read fails, the
/// cost is a branch per sample (Benchmarks: HotPathAllocations).
public struct TransientFaults: Sendable {
    /// Tries after the first, for one sample.
    public static let retriesPerSample = 3
    /// How long reads may fail without one good sample before the source
    /// gives up, ns: long enough for a burst of glitches, short enough that
    /// a device pulled off the bus is reported within about a second.
    public static let giveUpAfter: Int64 = 1_000_000_000

    /// When the current run of failed samples began; nil after a good one.
    private var failingSince: Int64?

    public init() {}

    /// A sample was read whole.
    public mutating func succeeded() { failingSince = nil }

    /// A sample's tries all failed at `now`; true when the failures have
    /// gone on for `giveUpAfter` and the source should end.
    public mutating func sampleFailed(at now: Int64) -> Bool {
        guard let since = failingSince else {
            failingSince = now
            return false
        }
        return now - since >= Self.giveUpAfter
    }
}

extension TransientFaults {
    /// Runs `body` and, while it fails with a transient error and `going()`
    /// says so, runs it again, at most `retriesPerSample` times, calling
    /// `counting` for each retry. `body` must make all the reads (or writes)
    /// that belong together, so a retry starts afresh.
    @inlinable @inline(__always)
    public static func retrying<T>(while going: () -> Bool = { true }, counting: () -> Void = {},
                            _ body: () throws(DeviceError) -> T) throws(DeviceError) -> T {
        var retries = 0
        while true {
            do {
                return try body()
            } catch where error.isTransient && retries < retriesPerSample && going() {
                retries += 1
                counting()
            }
        }
    }
}
