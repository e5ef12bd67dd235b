// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// How a framebuffer stores a pixel, read from the kernel's bitfields
/// (`fb_var_screeninfo.red/green/blue/transp`), never assumed: RGB565 on a
/// Pi's HDMI by default, BGR565 on some panels, XRGB8888 with `-32` in
/// `video=`, 24 bpp on old drivers, RGB565 on the Sense HAT's LED matrix.
///
/// Only packed true-colour formats of 16, 24 or 32 bits whose channels are
/// 1…8 bits wide and do not overlap are made; anything else is refused with
/// the reason. A DRM dumb buffer is `xrgb8888`.
public struct PixelFormat: Equatable, Sendable, CustomStringConvertible {
    /// Where one colour channel sits in a pixel.
    public struct Channel: Equatable, Sendable {
        public var offset: Int
        public var length: Int
        public init(offset: Int, length: Int) { self.offset = offset; self.length = length }
    }

    public let bitsPerPixel: Int
    public let red: Channel, green: Channel, blue: Channel
    /// The alpha (`transp`) channel, if any: written fully opaque.
    public let alpha: Channel?

    public init(bitsPerPixel: Int, red: Channel, green: Channel, blue: Channel, alpha: Channel? = nil) throws(PixelFormatError) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        if let problem = unsupportedBecause { throw .unsupported(format: description, reason: problem) }
    }

    public static let rgb565 = try! PixelFormat(bitsPerPixel: 16, red: .init(offset: 11, length: 5),
                                                green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5))
    public static let bgr565 = try! PixelFormat(bitsPerPixel: 16, red: .init(offset: 0, length: 5),
                                                green: .init(offset: 5, length: 6), blue: .init(offset: 11, length: 5))
    public static let xrgb8888 = try! PixelFormat(bitsPerPixel: 32, red: .init(offset: 16, length: 8),
                                                  green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
    public static let xbgr8888 = try! PixelFormat(bitsPerPixel: 32, red: .init(offset: 0, length: 8),
                                                  green: .init(offset: 8, length: 8), blue: .init(offset: 16, length: 8))
    public static let argb8888 = try! PixelFormat(bitsPerPixel: 32, red: .init(offset: 16, length: 8),
                                                  green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8),
                                                  alpha: .init(offset: 24, length: 8))
    /// 24 bpp, blue in the first byte (little-endian "RGB888").
    public static let rgb888 = try! PixelFormat(bitsPerPixel: 24, red: .init(offset: 16, length: 8),
                                                green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))

    /// The formats `--format` names, for snapshots.
    public static let named: [String: PixelFormat] = [
        "rgb565": .rgb565, "bgr565": .bgr565, "xrgb8888": .xrgb8888, "xbgr8888": .xbgr8888,
        "argb8888": .argb8888, "rgb888": .rgb888,
    ]

    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    /// "RGB565", "XBGR8888", or the bitfields for a format without a common name.
    public var description: String {
        for (name, format) in Self.named.sorted(by: { $0.key < $1.key }) where format.sameLayout(as: self) {
            return name.uppercased()
        }
        let a = alpha.map { " a\($0.offset)/\($0.length)" } ?? ""
        return "\(bitsPerPixel) bpp r\(red.offset)/\(red.length) g\(green.offset)/\(green.length) b\(blue.offset)/\(blue.length)\(a)"
    }

    private func sameLayout(as other: PixelFormat) -> Bool {
        bitsPerPixel == other.bitsPerPixel && red == other.red && green == other.green && blue == other.blue && alpha == other.alpha
    }

    /// The stored value of a colour (the top bits of each 8-bit channel).
    @inlinable
    public func encode(red r: UInt8, green g: UInt8, blue b: UInt8) -> UInt32 {
        var v = (UInt32(r) >> UInt32(8 - red.length)) << UInt32(red.offset)
        v |= (UInt32(g) >> UInt32(8 - green.length)) << UInt32(green.offset)
        v |= (UInt32(b) >> UInt32(8 - blue.length)) << UInt32(blue.offset)
        if let alpha { v |= ((UInt32(1) << UInt32(alpha.length)) - 1) << UInt32(alpha.offset) }
        return v
    }

    /// The colour a stored value shows, each channel widened to 8 bits by
    /// repeating its top bits (as a screen capture does: 5-bit 31 is 255).
    public func decode(_ value: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8) {
        func channel(_ c: Channel) -> UInt8 {
            let raw = (value >> UInt32(c.offset)) & ((1 << UInt32(c.length)) - 1)
            var wide = raw << UInt32(8 - c.length)
            var filled = c.length
            while filled < 8 {
                wide |= wide >> UInt32(filled)
                filled *= 2
            }
            return UInt8(wide & 0xFF)
        }
        return (channel(red), channel(green), channel(blue))
    }

    private var unsupportedBecause: String? {
        guard [16, 24, 32].contains(bitsPerPixel) else {
            return "\(bitsPerPixel) bits per pixel; only 16, 24 and 32 are drawn"
        }
        var used: UInt64 = 0
        for channel in [red, green, blue] + (alpha.map { [$0] } ?? []) {
            guard (1...8).contains(channel.length), channel.offset >= 0, channel.offset + channel.length <= bitsPerPixel else {
                return "a channel of \(channel.length) bits at bit \(channel.offset) does not fit a \(bitsPerPixel)-bit pixel"
            }
            let mask = ((UInt64(1) << UInt64(channel.length)) - 1) << UInt64(channel.offset)
            guard used & mask == 0 else { return "two channels share bits" }
            used |= mask
        }
        return nil
    }
}

/// Why bitfields make no pixel format that can be written; each reads after
/// "cannot draw".
public enum PixelFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bitfields (named as `PixelFormat.description` names them) and what is wrong with them.
    case unsupported(format: String, reason: String)
    /// A palette (pseudocolour) or monochrome visual: the pixels hold indices, not colours.
    case notTrueColor(visual: String)
    /// Not packed pixels (planes, interleaved, text): `fb_fix_screeninfo.type`.
    case notPackedPixels(type: UInt32)

    public var description: String {
        switch self {
        case .unsupported(let format, let reason): "pixel format \(format): \(reason)"
        case .notTrueColor(let visual): "a \(visual) framebuffer: it stores palette indices, not colours"
        case .notPackedPixels(let type): "framebuffer type \(type) (not packed pixels)"
        }
    }
}
