// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Realtime
import Render

/// What `play --stats` shows: how late the physics thread wakes, how long
/// frames are apart and take, how old the newest sample is when its frame
/// reaches the screen, how many samples the ring dropped, and, once a
/// glitching bus has made the sensor retry a read, how many reads it retried
/// and how many samples it lost.
///
/// The frame loop records into fixed histograms (no locks, no allocation);
/// a few times a second `text(tickLateness:dropped:)` turns the last
/// window of each into one ASCII line in a buffer made once:
///
///     tick 62/140us  frame 16.7ms cost 0.21ms  age 3.1/5.0ms  dropped 0  sent 5075B/3
///
/// `tick` and `age` are p50/p99; `frame` the median period, `cost` the
/// median time from the frame's wake-up to its write; `sent` the mean bytes
/// a frame sent to the screen (escape codes, or pixels copied) and the mean
/// pieces they went in (writes, or rectangles copied). `retried N lost M`
/// follows only once either is not 0.
public final class FrameStatistics {
    /// Time between frame writes.
    public let framePeriod = LatencyHistogram()
    /// Time from a frame's wake-up to its write.
    public let frameCost = LatencyHistogram()
    /// Time from the newest sample's stamp to the write of its frame.
    public let sampleAge = LatencyHistogram()
    private let tickWindow = LatencyWindow(), periodWindow = LatencyWindow()
    private let costWindow = LatencyWindow(), ageWindow = LatencyWindow()
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var sentBytes = 0, sentPieces = 0, sentFrames = 0

    /// Counts what one frame sent to the screen.
    public func recordSent(_ frame: DrawnFrame) {
        sentBytes &+= frame.bytes
        sentPieces &+= frame.pieces
        sentFrames &+= 1
    }

    public init() {
        bytes = .allocate(capacity: 256)
        bytes.initialize(repeating: 0)
    }

    deinit { bytes.deallocate() }

    /// The line for everything recorded since the last call (the physics
    /// thread's lateness from `tickLateness`). Valid until the next call.
    public func text(tickLateness: LatencyHistogram, dropped: Int, retried: Int = 0, lost: Int = 0) -> UnsafeBufferPointer<UInt8> {
        tickWindow.advance(tickLateness)
        periodWindow.advance(framePeriod)
        costWindow.advance(frameCost)
        ageWindow.advance(sampleAge)
        var w = ByteWriter(bytes)
        w.append("tick ")
        Self.pair(tickWindow, divisor: 1e3, decimals: 0, into: &w)
        w.append("us  frame ")
        Self.value(periodWindow.percentile(0.5), divisor: 1e6, decimals: 1, into: &w)
        w.append("ms cost ")
        Self.value(costWindow.percentile(0.5), divisor: 1e6, decimals: 2, into: &w)
        w.append("ms  age ")
        Self.pair(ageWindow, divisor: 1e6, decimals: 1, into: &w)
        w.append("ms  dropped ")
        w.appendDecimal(dropped)
        w.append("  sent ")
        w.appendDecimal(sentFrames > 0 ? sentBytes / sentFrames : 0)
        w.append("B/")
        w.appendDecimal(sentFrames > 0 ? (sentPieces + sentFrames / 2) / sentFrames : 0)
        if retried > 0 || lost > 0 {
            w.append("  retried ")
            w.appendDecimal(retried)
            w.append(" lost ")
            w.appendDecimal(lost)
        }
        sentBytes = 0
        sentPieces = 0
        sentFrames = 0
        return UnsafeBufferPointer(start: bytes.baseAddress, count: w.count)
    }

    /// "p50/p99" of a window, or "-/-" when it is empty.
    package static func pair(_ window: LatencyWindow, divisor: Double, decimals: Int, into w: inout ByteWriter) {
        value(window.percentile(0.5), divisor: divisor, decimals: decimals, into: &w)
        w.append(UInt8(ascii: "/"))
        value(window.percentile(0.99), divisor: divisor, decimals: decimals, into: &w)
    }

    private static func value(_ nanoseconds: Int64?, divisor: Double, decimals: Int, into w: inout ByteWriter) {
        guard let nanoseconds else { return w.append(UInt8(ascii: "-")) }
        w.appendSeconds(Double(nanoseconds) / divisor, decimals: decimals)
    }
}
