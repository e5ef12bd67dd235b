// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// An RGB pixel buffer that the game paints and the terminal (or framebuffer)
/// back end rasterises.
///
/// Storage is one unsafe buffer, allocated at init and only reallocated when
/// `resize` needs more room, so drawing into it on the frame path never
/// touches the heap.
public final class Canvas {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major pixels; `capacity >= width * height`.
    @usableFromInline package var pixels: UnsafeMutableBufferPointer<RGB>

    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "canvas size must not be negative")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: max(width * height, 1))
        pixels.initialize(repeating: RGB(0, 0, 0))
    }

    deinit { pixels.deallocate() }

    /// Changes the size; the content becomes black. Reallocates only when the
    /// new area exceeds what the canvas already holds.
    public func resize(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "canvas size must not be negative")
        if width * height > pixels.count {
            pixels.deallocate()
            pixels = .allocate(capacity: width * height)
        }
        self.width = width
        self.height = height
        pixels.initialize(repeating: RGB(0, 0, 0))
    }

    /// The pixel at (x, y); both must be inside the canvas.
    @inlinable
    public subscript(x: Int, y: Int) -> RGB {
        get {
            precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the canvas")
            return pixels[y &* width &+ x]
        }
        set {
            precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the canvas")
            pixels[y &* width &+ x] = newValue
        }
    }

    /// Paints every pixel.
    public func fill(_ color: RGB) {
        guard width > 0, height > 0 else { return }
        UnsafeMutableBufferPointer(rebasing: pixels[0 ..< width * height]).update(repeating: color)
    }

    /// Paints a rectangle; the parts outside the canvas are ignored.
    public func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: RGB) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0 ..< y1 {
            let start = row &* width
            UnsafeMutableBufferPointer(rebasing: pixels[start + x0 ..< start + x1]).update(repeating: color)
        }
    }

    /// Paints every pixel whose centre lies inside the circle (a pixel (x, y)
    /// covers [x, x+1) × [y, y+1), so its centre is (x + ½, y + ½)). Clipped.
    /// Returns how many pixels were painted, so a caller can guarantee a tiny
    /// sprite stays visible.
    @discardableResult
    public func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGB) -> Int {
        guard radius > 0, centerX.isFinite, centerY.isFinite, radius.isFinite else { return 0 }
        let r2 = radius * radius
        // Rows whose centre can be within `radius` of centerY.
        let y0 = Canvas.index((centerY - radius - 0.5).rounded(.up), limit: height)
        let y1 = Canvas.index((centerY + radius - 0.5).rounded(.down), limit: height)
        guard y0 <= y1, y1 >= 0, y0 < height else { return 0 }
        var painted = 0
        for y in max(y0, 0) ... min(y1, height - 1) {
            let dy = Double(y) + 0.5 - centerY
            let span2 = r2 - dy * dy
            guard span2 >= 0 else { continue }
            let span = span2.squareRoot()
            let x0 = max(Canvas.index((centerX - span - 0.5).rounded(.up), limit: width), 0)
            let x1 = min(Canvas.index((centerX + span - 0.5).rounded(.down), limit: width), width - 1)
            guard x0 <= x1 else { continue }
            let start = y &* width
            UnsafeMutableBufferPointer(rebasing: pixels[start + x0 ... start + x1]).update(repeating: color)
            painted += x1 - x0 + 1
        }
        return painted
    }

    /// A whole-number coordinate as an index, pinned to -1…limit so that a
    /// wild sprite position (far off screen) cannot trap the conversion.
    @inline(__always)
    static func index(_ value: Double, limit: Int) -> Int {
        Int(min(max(value, -1), Double(limit)))
    }

    /// Copies a rectangle from a canvas of the same size; how a frame puts
    /// back the static picture where a sprite was, instead of repainting all.
    public func copyRect(from source: Canvas, x: Int, y: Int, width w: Int, height h: Int) {
        precondition(source.width == width && source.height == height, "canvases differ in size")
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0 ..< y1 {
            let start = row &* width + x0
            (pixels.baseAddress! + start).update(from: source.pixels.baseAddress! + start, count: x1 - x0)
        }
    }

    /// The pixels of `source` (same size) in the rectangle, blended
    /// `fraction` of the way towards `color`: the tinted picture of the caught flash.
    public func blendRect(from source: Canvas, x: Int, y: Int, width w: Int, height h: Int, towards color: RGB, fraction: Double) {
        precondition(source.width == width && source.height == height, "canvases differ in size")
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0 ..< y1 {
            for column in x0 ..< x1 {
                self[column, row] = source[column, row].blended(towards: color, fraction: fraction)
            }
        }
    }

    /// Copies all pixels from a canvas of the same size.
    public func copy(from source: Canvas) {
        copyRect(from: source, x: 0, y: 0, width: width, height: height)
    }
}
