// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render

/// What a double-buffered output must copy into its back buffer so that,
/// once flipped, it shows the picture: the back buffer is the frame before
/// last, so it lacks both the last frame's changes and this frame's. Copying
/// those two sets of rectangles (or everything, when the back buffer cannot
/// be trusted) keeps both buffers in step without copying whole frames.
///
/// The two sets overlap a great deal (a sprite's place in the last frame is
/// in both), so a pair that overlaps is copied as its bounding box whenever
/// that box is no larger than the two apart: a rolling ball then costs about
/// what it costs single-buffered, not twice that.
///
/// Kept apart from `KMSOutput` so the policy is tested and measured on
/// memory surfaces; the output owns the device.
public final class BackBufferDamage {
    /// The rectangles the last frame copied, which the other buffer lacks.
    private let previous: UnsafeMutableBufferPointer<PixelRect>
    private var previousCount = 0
    /// This frame's work: the last frame's rectangles and this one's, merged.
    private let work: UnsafeMutableBufferPointer<PixelRect>
    /// Whether the back buffer must be copied whole.
    public private(set) var isStale = true

    /// More rectangles than this in a frame are copied as one whole frame.
    public static let capacity = 64

    public init() {
        previous = .allocate(capacity: Self.capacity)
        work = .allocate(capacity: 2 * Self.capacity)
    }

    deinit {
        previous.deallocate()
        work.deallocate()
    }

    /// The back buffer holds nothing known (at the start, after a frame that
    /// was never shown, after another program drew on the display).
    public func markStale() { isStale = true }

    /// Whether a frame with `changed` would copy anything.
    public func hasWork(_ changed: UnsafeBufferPointer<PixelRect>) -> Bool {
        isStale || previousCount > 0 || !changed.isEmpty
    }

    /// Copies into `back` what it lacks of `picture`, given the rectangles
    /// that changed since the last frame; returns the bytes copied. The
    /// caller then shows `back`. Allocates nothing.
    public func bringUpToDate(_ back: PixelSurface, with picture: Canvas, changed: UnsafeBufferPointer<PixelRect>) -> Int {
        let whole = PixelRect(x: 0, y: 0, width: back.width, height: back.height)
        if isStale || changed.count > Self.capacity {
            let bytes = back.copy(whole, from: picture)
            // The other buffer is as old as this one was: it needs everything too.
            previous[0] = whole
            previousCount = 1
            isStale = false
            return bytes
        }
        var count = 0
        for i in 0 ..< previousCount { work[count] = previous[i]; count += 1 }
        for rect in changed where rect.width > 0 && rect.height > 0 { work[count] = rect; count += 1 }
        count = PixelRect.mergeOverlapping(work, count: count)
        var bytes = 0
        for i in 0 ..< count { bytes += back.copy(work[i], from: picture) }
        for (i, rect) in changed.enumerated() { previous[i] = rect }
        previousCount = changed.count
        return bytes
    }
}
