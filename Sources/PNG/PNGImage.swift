// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CPNG
import SystemCalls

/// An 8-bit RGB picture and its PNG form, through libpng's simplified API
/// (`png_image_*`), which reports errors in the image struct instead of
/// jumping out of the caller with `longjmp`.
public struct PNGImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major, three bytes a pixel (red, green, blue), no padding.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "an RGB image of width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (red, green, blue).
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Reads a PNG file, converting any PNG colour type to 8-bit RGB.
    /// The corresponding C functions are `png_image_begin_read_from_file`
    /// and `png_image_finish_read`.
    public init(contentsOf path: String) throws(PNGError) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGError(path: path, operation: "read", message: Self.message(&image))
        }
        image.format = png_uint_32(PNG_FORMAT_RGB)
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw PNGError(path: path, operation: "read", message: Self.message(&image)) }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The PNG file's bytes. The corresponding C function is `png_image_write_to_memory`.
    public func encoded() throws(PNGError) -> [UInt8] {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var size: png_alloc_size_t = 0
        let sized = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        guard sized != 0 else { throw PNGError(path: "memory", operation: "encode", message: Self.message(&image)) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        guard written != 0 else { throw PNGError(path: "memory", operation: "encode", message: Self.message(&image)) }
        return Array(bytes.prefix(Int(size)))
    }

    /// Writes the PNG to `path` atomically: the old file, or the whole new one.
    public func write(to path: String, replacing: Bool = true) throws(PNGError) {
        let bytes = try encoded()
        if case .failure(let errno) = bytes.withUnsafeBytes({ AtomicFile.write($0, to: path, replacing: replacing) }) {
            throw PNGError(path: path, operation: "write", message: "\(errno)")
        }
    }

    /// libpng's message, and the image's resources released.
    private static func message(_ image: inout png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&image)
        return text.isEmpty ? "libpng failed" : text
    }
}

/// A PNG that could not be read, encoded or written.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var operation: String
    public var message: String
    public var description: String { "\(path): cannot \(operation) the PNG: \(message)" }
}
