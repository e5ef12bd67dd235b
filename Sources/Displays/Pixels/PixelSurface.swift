// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev

/// Pixels in a framebuffer's memory: `height` rows `lineLength` bytes apart
/// (padding at a row's end is left alone), each pixel in `format`. The
/// memory is a mapped device (`FramebufferDevice`) or plain memory this
/// surface owns (snapshots, tests).
///
/// The game draws into an RGB `Canvas` of the same size and copies only the
/// rectangles that changed, row by row, converting as it goes: a ball moving
/// across the maze costs a few kilobytes a frame, not the whole screen.
public final class PixelSurface {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (≥ width × bytes per pixel).
    public let lineLength: Int
    public let format: PixelFormat
    /// The first byte of the first row.
    public let base: UnsafeMutableRawPointer
    private let ownsMemory: Bool

    /// A surface over memory someone else owns (a mapped device); it must
    /// outlive the surface.
    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, lineLength: Int, format: PixelFormat) {
        precondition(width > 0 && height > 0 && lineLength >= width * format.bytesPerPixel, "a row must hold its pixels")
        self.base = base
        self.width = width
        self.height = height
        self.lineLength = lineLength
        self.format = format
        ownsMemory = false
    }

    /// A surface in memory of its own, zeroed (black), with `lineLength`
    /// (default: no padding) as a driver might lay it out.
    public init(width: Int, height: Int, format: PixelFormat, lineLength: Int? = nil) {
        let stride = lineLength ?? width * format.bytesPerPixel
        precondition(width > 0 && height > 0 && stride >= width * format.bytesPerPixel, "a row must hold its pixels")
        base = .allocate(byteCount: stride * height, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
        self.width = width
        self.height = height
        self.lineLength = stride
        self.format = format
        ownsMemory = true
    }

    deinit { if ownsMemory { base.deallocate() } }

    /// Copies `rect` of `canvas` (which has the surface's size) into the
    /// framebuffer, converting each pixel; the part outside either is
    /// skipped. Returns the bytes written. Allocates nothing.
    @discardableResult
    public func copy(_ rect: PixelRect, from canvas: Canvas) -> Int {
        let x0 = max(rect.x, 0), y0 = max(rect.y, 0)
        let x1 = min(rect.x + rect.width, width, canvas.width), y1 = min(rect.y + rect.height, height, canvas.height)
        guard x0 < x1, y0 < y1 else { return 0 }
        let bytes = format.bytesPerPixel
        let pixels = canvas.pixels
        for y in y0 ..< y1 {
            var out = base + y * lineLength + x0 * bytes
            let row = y * canvas.width
            for x in x0 ..< x1 {
                let value = format.encode(pixels[row + x])
                switch bytes {
                case 2: out.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, as: UInt16.self)
                case 4: out.storeBytes(of: value.littleEndian, as: UInt32.self)
                default:
                    out.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
                    (out + 1).storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), as: UInt8.self)
                    (out + 2).storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), as: UInt8.self)
                }
                out += bytes
            }
        }
        return (x1 - x0) * (y1 - y0) * bytes
    }

    /// Copies the whole canvas. Returns the bytes written.
    @discardableResult
    public func copyAll(from canvas: Canvas) -> Int {
        copy(PixelRect(x: 0, y: 0, width: width, height: height), from: canvas)
    }

    /// The stored value of the pixel at (x, y).
    public func rawPixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel outside the surface")
        let p = base + y * lineLength + x * format.bytesPerPixel
        switch format.bytesPerPixel {
        case 2: return UInt32(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self)))
        case 4: return UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
        default:
            return UInt32(p.load(as: UInt8.self)) | UInt32((p + 1).load(as: UInt8.self)) << 8
                | UInt32((p + 2).load(as: UInt8.self)) << 16
        }
    }

    /// The colour the pixel at (x, y) shows.
    public func pixel(x: Int, y: Int) -> RGB { format.color(of: rawPixel(x: x, y: y)) }

    /// What the surface shows, as 8-bit RGB rows (for PNG snapshots).
    public func rgbBytes() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(width * height * 3)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let c = pixel(x: x, y: y)
                out += [c.r, c.g, c.b]
            }
        }
        return out
    }
}
