// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Fbdev
import Testing
@testable import Displays
@testable import Render

@Suite("Framebuffer pixel formats")
struct PixelFormatTests {
    @Test("each named format stores a colour in its own bit layout", arguments: [
        (PixelFormat.rgb565, RGB(255, 0, 0), UInt32(0xF800)), (.rgb565, RGB(0, 255, 0), 0x07E0), (.rgb565, RGB(0, 0, 255), 0x001F),
        (.bgr565, RGB(255, 0, 0), 0x001F), (.bgr565, RGB(0, 0, 255), 0xF800),
        (.xrgb8888, RGB(0x12, 0x34, 0x56), 0x0012_3456), (.xbgr8888, RGB(0x12, 0x34, 0x56), 0x0056_3412),
        (.argb8888, RGB(0x12, 0x34, 0x56), 0xFF12_3456), (.rgb888, RGB(0x12, 0x34, 0x56), 0x12_3456),
    ])
    func encodes(_ format: PixelFormat, _ color: RGB, _ stored: UInt32) {
        #expect(format.encode(color) == stored)
    }

    @Test("narrow channels read back widened by repeating their top bits, as a screen capture does")
    func decodes() {
        #expect(PixelFormat.rgb565.color(of: 0xFFFF) == RGB(255, 255, 255))
        #expect(PixelFormat.rgb565.color(of: 0x8410) == RGB(0x84, 0x82, 0x84))
        #expect(PixelFormat.xrgb8888.color(of: 0x00AB_CDEF) == RGB(0xAB, 0xCD, 0xEF))
        for format in PixelFormat.named.values {
            #expect(format.color(of: format.encode(RGB(255, 255, 255))) == RGB(255, 255, 255))
            #expect(format.color(of: format.encode(RGB(0, 0, 0))) == RGB(0, 0, 0))
        }
    }

    @Test("formats are named by their layout, whatever they were made from")
    func names() throws {
        #expect(PixelFormat.rgb565.description == "RGB565")
        #expect(PixelFormat.xbgr8888.description == "XBGR8888")
        let odd = try PixelFormat(bitsPerPixel: 32, red: .init(offset: 24, length: 8), green: .init(offset: 16, length: 8),
                                  blue: .init(offset: 8, length: 8))
        #expect(odd.description == "32 bpp r24/8 g16/8 b8/8")
    }

    @Test("formats that cannot be drawn are refused with the reason", arguments: [
        (8, 0, 3, 3, 3, 6, 2, "only 16, 24 and 32"),
        (16, 11, 5, 5, 6, 10, 5, "share bits"),
        (32, 16, 10, 8, 8, 0, 8, "does not fit"),
        (16, 12, 5, 5, 6, 0, 5, "does not fit"),
    ])
    func refused(_ bpp: Int, _ ro: Int, _ rl: Int, _ go: Int, _ gl: Int, _ bo: Int, _ bl: Int, _ reason: String) {
        #expect {
            _ = try PixelFormat(bitsPerPixel: bpp, red: .init(offset: ro, length: rl), green: .init(offset: go, length: gl),
                                blue: .init(offset: bo, length: bl))
        } throws: { error in
            // The wrapper says what is wrong; the game's error adds what to do.
            guard let problem = error as? PixelFormatError else { return false }
            let shown = "\(DisplayError.format(path: "/dev/fb0", problem))"
            return "\(problem)".contains(reason) && shown.contains("/dev/fb0") && shown.contains("16 or 32 bpp")
        }
    }
}
