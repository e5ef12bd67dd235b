// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Crisp text for the framebuffer's status line and menus: the X11
/// misc-fixed 6×13 font (public domain), printable ASCII, each font pixel
/// drawn as a `scale`×`scale` square so it stays sharp on any screen.
/// Bytes outside printable ASCII draw as `?`.
public enum BitmapFont {
    public static let glyphWidth = 6
    public static let glyphHeight = 13

    /// The width of `count` characters at `scale`.
    @inlinable
    public static func width(of count: Int, scale: Int) -> Int { count * glyphWidth * scale }

    /// Draws `text` with its cell's top-left at (x, y); returns the x after
    /// the last character. Clipped to the canvas. Allocates nothing.
    @discardableResult
    public static func draw(_ text: UnsafeBufferPointer<UInt8>, x: Int, y: Int, scale: Int, color: RGB,
                            into canvas: Canvas) -> Int {
        var left = x
        for byte in text {
            let code = byte >= 32 && byte < 127 ? Int(byte) : Int(UInt8(ascii: "?"))
            let glyph = (code - 32) * glyphHeight
            for row in 0 ..< glyphHeight {
                let bits = rows6x13[glyph + row]
                guard bits != 0 else { continue }
                for column in 0 ..< glyphWidth where bits & (0x80 >> UInt8(column)) != 0 {
                    canvas.fillRect(x: left + column * scale, y: y + row * scale, width: scale, height: scale, color: color)
                }
            }
            left += glyphWidth * scale
        }
        return left
    }

    /// `draw` for a literal.
    @discardableResult
    public static func draw(_ text: StaticString, x: Int, y: Int, scale: Int, color: RGB, into canvas: Canvas) -> Int {
        draw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), x: x, y: y, scale: scale,
             color: color, into: canvas)
    }

    /// Run-time text (a title, a sensor name) as the bytes `draw` takes:
    /// ASCII kept, the punctuation our own labels use spelled in ASCII
    /// (`·` as `-`, `…` as `...`), anything else `?`. Made once, not per frame.
    public static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case " " ... "~": out.append(UInt8(scalar.value))
            case "\u{B7}", "\u{2013}", "\u{2014}", "\u{2212}": out.append(UInt8(ascii: "-"))
            case "\u{D7}": out.append(UInt8(ascii: "x"))
            case "\u{2018}", "\u{2019}": out.append(UInt8(ascii: "'"))
            case "\u{201C}", "\u{201D}": out.append(UInt8(ascii: "\""))
            case "\u{2026}": out += Array("...".utf8)
            case "\u{2192}": out += Array("->".utf8)
            default: out.append(UInt8(ascii: "?"))
            }
        }
        return out
    }
}
