// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Fbdev
import Testing
@testable import Displays
@testable import Render

@Suite("Framebuffer surfaces: conversion, strides, dirty rectangles")
struct PixelSurfaceTests {
    /// A canvas with a different colour in every pixel.
    func gradient(_ width: Int, _ height: Int) -> Canvas {
        let canvas = Canvas(width: width, height: height)
        for y in 0 ..< height { for x in 0 ..< width { canvas[x, y] = RGB(UInt8(truncatingIfNeeded: x * 20), UInt8(truncatingIfNeeded: y * 30), UInt8(truncatingIfNeeded: x * y)) } }
        return canvas
    }

    @Test("a padded stride: every row starts line_length bytes after the last, and the padding is never written",
          arguments: [PixelFormat.rgb565, .xrgb8888, .rgb888])
    func paddedStride(_ format: PixelFormat) {
        let width = 7, height = 5, stride = width * format.bytesPerPixel + 13
        let surface = PixelSurface(width: width, height: height, format: format, lineLength: stride)
        surface.base.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * height)
        let canvas = gradient(width, height)
        #expect(surface.copyAll(from: canvas) == width * height * format.bytesPerPixel)
        for y in 0 ..< height {
            for x in 0 ..< width { #expect(surface.rawPixel(x: x, y: y) == format.encode(canvas[x, y])) }
            for pad in width * format.bytesPerPixel ..< stride {
                #expect(surface.base.load(fromByteOffset: y * stride + pad, as: UInt8.self) == 0xAB)
            }
        }
    }

    @Test("copying a rectangle writes exactly its pixels and leaves every other byte as it was")
    func rectangleOnly() {
        let format = PixelFormat.rgb565
        let surface = PixelSurface(width: 20, height: 10, format: format, lineLength: 48)
        surface.base.initializeMemory(as: UInt8.self, repeating: 0x5A, count: 48 * 10)
        let canvas = gradient(20, 10)
        let rect = PixelRect(x: 3, y: 2, width: 6, height: 4)
        #expect(surface.copy(rect, from: canvas) == 6 * 4 * 2)
        for y in 0 ..< 10 {
            for x in 0 ..< 20 {
                let inside = x >= 3 && x < 9 && y >= 2 && y < 6
                #expect(surface.rawPixel(x: x, y: y) == (inside ? format.encode(canvas[x, y]) : 0x5A5A), "pixel \(x),\(y)")
            }
        }
    }

    @Test("a rectangle partly off the surface is clipped; one wholly off writes nothing")
    func clipping() {
        let surface = PixelSurface(width: 4, height: 4, format: .xrgb8888)
        let canvas = gradient(4, 4)
        #expect(surface.copy(PixelRect(x: -2, y: 2, width: 4, height: 10), from: canvas) == 2 * 2 * 4)
        #expect(surface.copy(PixelRect(x: 9, y: 0, width: 3, height: 3), from: canvas) == 0)
        #expect(surface.pixel(x: 1, y: 3) == canvas[1, 3])
        #expect(surface.pixel(x: 2, y: 3) == RGB(0, 0, 0))
    }
}
