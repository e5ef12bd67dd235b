// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A rectangle of canvas pixels: what a sprite covered, to put the static
/// picture back there on the next frame.
public struct PixelRect: BitwiseCopyable, Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// The pixels a circle can touch, with a one-pixel margin for rounding.
    /// Coordinates are clamped so a wild position cannot trap a conversion.
    static func around(centerX: Double, centerY: Double, radius: Double) -> PixelRect {
        @inline(__always) func pin(_ v: Double) -> Int { Int(min(max(v, -1e6), 1e6)) }
        let x0 = pin((centerX - radius).rounded(.down)) - 1
        let y0 = pin((centerY - radius).rounded(.down)) - 1
        let x1 = pin((centerX + radius).rounded(.up)) + 1
        let y1 = pin((centerY + radius).rounded(.up)) + 1
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension PixelRect {
    /// Merges, in place, each overlapping pair whose bounding box is no
    /// larger than the pair apart, until no pair is left to merge; returns
    /// the new count. Every pixel of the rectangles given stays covered.
    public static func mergeOverlapping(_ rects: UnsafeMutableBufferPointer<PixelRect>, count start: Int) -> Int {
        var count = start
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < count {
                var j = i + 1
                while j < count {
                    if let box = mergedBox(rects[i], rects[j]) {
                        rects[i] = box
                        count -= 1
                        rects[j] = rects[count]
                        merged = true
                    } else {
                        j += 1
                    }
                }
                i += 1
            }
        }
        return count
    }

    /// The bounding box of `a` and `b` when they overlap (or touch) and it is
    /// no larger than both apart; nil when copying them apart is cheaper.
    public static func mergedBox(_ a: PixelRect, _ b: PixelRect) -> PixelRect? {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        let x1 = max(a.x + a.width, b.x + b.width), y1 = max(a.y + a.height, b.y + b.height)
        let touches = a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
        guard touches, (x1 - x0) * (y1 - y0) <= a.width * a.height + b.width * b.height else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
