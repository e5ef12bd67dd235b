// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Realtime

@Suite("Latency histogram")
struct LatencyHistogramTests {
    @Test("buckets cover every value in order: each value's bucket holds it, and the next bucket starts where it ends")
    func bucketsTile() {
        var expectedStart: Int64 = 0
        for bucket in 0 ..< LatencyHistogram.bucketCount - 1 {
            let (low, width) = LatencyHistogram.range(of: bucket)
            #expect(low == expectedStart, "bucket \(bucket)")
            #expect(LatencyHistogram.bucket(of: low) == bucket)
            #expect(LatencyHistogram.bucket(of: low + width - 1) == bucket)
            expectedStart = low + width
        }
    }

    @Test("a bucket is at most a sixteenth of its values wide, above 16 ns")
    func resolution() {
        for value: Int64 in [16, 100, 999, 12_345, 1_000_000, 987_654_321] {
            let (low, width) = LatencyHistogram.range(of: LatencyHistogram.bucket(of: value))
            #expect(Double(width) <= Double(low) / 16 + 1)
            #expect(low <= value && value < low + width)
        }
    }

    @Test("negative values count as 0; values past the last bucket land in it")
    func edges() {
        #expect(LatencyHistogram.bucket(of: -5) == 0)
        #expect(LatencyHistogram.bucket(of: .max) == LatencyHistogram.bucketCount - 1)
    }

    @Test("a window's percentiles come from what was recorded since the last look")
    func windows() {
        let h = LatencyHistogram()
        let w = LatencyWindow()
        w.advance(h)
        #expect(w.count == 0)
        #expect(w.percentile(0.5) == nil)
        for v in 1 ... 100 { h.record(Int64(v) * 1_000) }        // 1…100 µs
        w.advance(h)
        #expect(w.count == 100)
        let p50 = try! #require(w.percentile(0.5)), p99 = try! #require(w.percentile(0.99))
        #expect(abs(Double(p50) - 50_000) <= 50_000.0 / 16)
        #expect(abs(Double(p99) - 99_000) <= 99_000.0 / 16)
        for _ in 0 ..< 10 { h.record(5_000_000) }                  // then ten 5 ms values only
        w.advance(h)
        #expect(w.count == 10)
        #expect(abs(Double(w.percentile(0.5)!) - 5e6) <= 5e6 / 16)
        #expect(h.totalCount == 110)
    }
}
