// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization

/// Counts of nanosecond durations in fixed log-linear buckets: one thread
/// records (a tick's lateness, a frame's cost), any thread reads.
///
/// Recording is a bucket index (a count of leading zeros and two shifts)
/// and one relaxed load and store: no lock, no allocation, no read-modify-
/// write, which is safe because there is one writer. Buckets are 1/16 of a
/// power of two wide, so a percentile is within about 6 % of the truth,
/// from 16 ns to about 18 minutes; longer values land in the last bucket.
///
/// The counts only grow. `LatencyWindow` turns two looks at them into
/// percentiles over the time between.
public final class LatencyHistogram: @unchecked Sendable {
    // @unchecked Sendable: every bucket is an atomic; only the writer stores.

    /// Sub-buckets per power of two.
    @usableFromInline static let subBits = 4
    @usableFromInline static let largestPower = 40
    /// 0…15 exact, then 16 sub-buckets for each power of two from 2^4 to 2^40.
    public static let bucketCount = (largestPower - subBits + 1) << subBits + (1 << subBits)

    @usableFromInline let buckets: UnsafeMutablePointer<Atomic<UInt64>>

    public init() {
        buckets = .allocate(capacity: Self.bucketCount)
        for i in 0 ..< Self.bucketCount { (buckets + i).initialize(to: Atomic(0)) }
    }

    deinit {
        buckets.deinitialize(count: Self.bucketCount)
        buckets.deallocate()
    }

    /// Counts one value (negative values count as 0). Writer thread only.
    @inlinable
    public func record(_ nanoseconds: Int64) {
        let slot = buckets + Self.bucket(of: nanoseconds)
        slot.pointee.store(slot.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// The bucket a value falls in.
    @inlinable
    static func bucket(of nanoseconds: Int64) -> Int {
        let v = UInt64(max(nanoseconds, 0))
        if v < 1 << subBits { return Int(v) }
        let power = min(63 - v.leadingZeroBitCount, largestPower)
        if power == largestPower && v >= UInt64(1) << (largestPower + 1) { return bucketCount - 1 }
        let sub = Int(v >> UInt64(power - subBits)) & ((1 << subBits) - 1)
        return (power - subBits + 1) << subBits + sub
    }

    /// The smallest value of a bucket and its width.
    static func range(of bucket: Int) -> (lowerBound: Int64, width: Int64) {
        if bucket < 1 << subBits { return (Int64(bucket), 1) }
        let power = bucket >> subBits + subBits - 1
        let sub = bucket & ((1 << subBits) - 1)
        let width = Int64(1) << Int64(power - subBits)
        return (Int64((1 << subBits) + sub) * width, width)
    }

    /// A value typical of a bucket: its middle (its one value below 16 ns).
    static func representative(of bucket: Int) -> Int64 {
        let (low, width) = range(of: bucket)
        return low + width / 2
    }

    /// The count in bucket `i`. Any thread.
    @inlinable
    func count(at i: Int) -> UInt64 { buckets[i].load(ordering: .relaxed) }

    /// Every value recorded so far. Any thread.
    public var totalCount: UInt64 {
        var n: UInt64 = 0
        for i in 0 ..< Self.bucketCount { n &+= count(at: i) }
        return n
    }
}

/// Percentiles of what a `LatencyHistogram` recorded between two looks: the
/// last half second of frame costs, say, rather than the whole game's.
/// Owned by one reader; its buffer is allocated once, so `advance` allocates nothing.
public final class LatencyWindow {
    private let previous: UnsafeMutablePointer<UInt64>
    private let delta: UnsafeMutablePointer<UInt64>
    /// Values recorded in the last window.
    public private(set) var count: UInt64 = 0

    public init() {
        previous = .allocate(capacity: LatencyHistogram.bucketCount)
        previous.initialize(repeating: 0, count: LatencyHistogram.bucketCount)
        delta = .allocate(capacity: LatencyHistogram.bucketCount)
        delta.initialize(repeating: 0, count: LatencyHistogram.bucketCount)
    }

    deinit {
        previous.deallocate()
        delta.deallocate()
    }

    /// Ends the window: what `histogram` recorded since the last call becomes
    /// the window `percentile` reads.
    public func advance(_ histogram: LatencyHistogram) {
        count = 0
        for i in 0 ..< LatencyHistogram.bucketCount {
            let now = histogram.count(at: i)
            delta[i] = now &- previous[i]
            previous[i] = now
            count &+= delta[i]
        }
    }

    /// The value below which `fraction` (0…1) of the window's values lie,
    /// to within a bucket's width; nil for an empty window.
    public func percentile(_ fraction: Double) -> Int64? {
        guard count > 0 else { return nil }
        let rank = max(1, UInt64((Double(count) * min(max(fraction, 0), 1)).rounded(.up)))
        var seen: UInt64 = 0
        for i in 0 ..< LatencyHistogram.bucketCount {
            seen &+= delta[i]
            if seen >= rank { return LatencyHistogram.representative(of: i) }
        }
        return LatencyHistogram.representative(of: LatencyHistogram.bucketCount - 1)
    }
}
