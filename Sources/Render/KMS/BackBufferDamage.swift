/// What a double-buffered output must copy into its back buffer so that,
/// once flipped, it shows the picture: the back buffer is the frame before
/// last, so it lacks both the last frame's changes and this frame's. Copying
/// those two sets of rectangles (or everything, when the back buffer cannot
/// be trusted) keeps both buffers in step without copying whole frames.
///
/// Kept apart from `KMSOutput` so the policy is tested and measured on
/// memory surfaces; the output owns the device.
public final class BackBufferDamage {
    /// The rectangles the last frame copied, which the other buffer lacks.
    private let previous: UnsafeMutableBufferPointer<PixelRect>
    private var previousCount = 0
    /// Whether the back buffer must be copied whole.
    public private(set) var isStale = true

    /// More rectangles than this in a frame are copied as one whole frame.
    public static let capacity = 64

    public init() {
        previous = .allocate(capacity: Self.capacity)
    }

    deinit { previous.deallocate() }

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
    public func bringUpToDate(_ back: FramebufferSurface, with picture: Canvas, changed: UnsafeBufferPointer<PixelRect>) -> Int {
        let whole = PixelRect(x: 0, y: 0, width: back.width, height: back.height)
        var bytes = 0
        if isStale || changed.count > Self.capacity {
            bytes = back.copy(whole, from: picture)
            // The other buffer is as old as this one was: it needs everything too.
            previous[0] = whole
            previousCount = 1
            isStale = false
            return bytes
        }
        for i in 0 ..< previousCount { bytes += back.copy(previous[i], from: picture) }
        for rect in changed { bytes += back.copy(rect, from: picture) }
        for (i, rect) in changed.enumerated() { previous[i] = rect }
        previousCount = changed.count
        return bytes
    }
}
