// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CLinuxDisplay
import SystemCalls
import SystemPackage
import LibC

/// An open framebuffer device (`/dev/fbN`): its layout as the driver
/// reports it (`FBIOGET_VSCREENINFO`, `FBIOGET_FSCREENINFO`) and, when
/// opened for drawing, its memory mapped. Closed and unmapped in `deinit`.
///
/// Only what the driver says: what the pixels mean is for the caller.
public final class FbdevDevice {
    public let path: String
    /// The driver's name for it (`fb_fix_screeninfo.id`): "bochs-drmdrmfb", "RPi-Sense FB".
    public let name: String
    public let layout: FbdevLayout
    private let file: OwnedDescriptor
    private let mapping: MemoryMapping

    /// The first byte of the mapped memory; `layout.memoryLength` bytes.
    public var memory: UnsafeMutableRawPointer { mapping.base }

    /// Opens `path` read-write, reads its layout and maps its memory.
    public init(path: String) throws(DeviceError) {
        // Closed by itself if a step below throws.
        let fd = try Self.open(path, .readWrite)
        let (name, layout) = try fd.withDescriptor { d throws(DeviceError) in try Self.readLayout(d, path: path) }
        guard layout.lineLength * layout.height <= layout.memoryLength else {
            throw DeviceError(errno: EINVAL, operation: "use its memory", path: path,
                              detail: "the driver reports \(layout.height) rows of \(layout.lineLength) bytes but has only \(layout.memoryLength)")
        }
        do {
            mapping = try fd.withDescriptor { d throws(Errno) in try MemoryMapping(d, length: layout.memoryLength) }
        } catch {
            throw DeviceError(errno: error.rawValue, operation: "map its memory (\(layout.memoryLength) bytes)", path: path)
        }
        self.name = name
        self.layout = layout
        self.path = path
        file = fd
    }

    /// The driver's name and layout of the framebuffer at `path`, opened
    /// read-only, nothing mapped.
    public static func describe(path: String) throws(DeviceError) -> (name: String, layout: FbdevLayout) {
        let fd = try open(path, .readOnly)
        return try fd.withDescriptor { d throws(DeviceError) in try readLayout(d, path: path) }
    }

    /// Waits for the next vertical blank (`FBIO_WAITFORVSYNC`); the
    /// driver's errno where it cannot (ENOTTY: not offered).
    public func waitForVerticalBlank() throws(DeviceError) {
        var crtc: UInt32 = 0
        if case .failure(let e) = file.withDescriptor({ $0.control(cld_FBIO_WAITFORVSYNC, &crtc) }) {
            throw DeviceError(errno: e.rawValue, operation: "wait for the vertical blank (FBIO_WAITFORVSYNC)", path: path)
        }
    }

    private static func open(_ path: String, _ mode: FileDescriptor.AccessMode) throws(DeviceError) -> OwnedDescriptor {
        do {
            return try OwnedDescriptor.open(FilePath(path), mode)
        } catch {
            throw DeviceError(errno: error.rawValue, operation: "open", path: path)
        }
    }

    private static func readLayout(_ fd: FileDescriptor, path: String) throws(DeviceError) -> (String, FbdevLayout) {
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        func read(_ request: UInt, _ name: String, into argument: UnsafeMutableRawPointer) throws(DeviceError) {
            if case .failure(let e) = fd.control(request, argument) {
                throw DeviceError(errno: e.rawValue, operation: "read its layout (\(name))", path: path,
                                  detail: e == .inappropriateIOCTLForDevice ? "it is not a framebuffer (expected /dev/fbN)" : nil)
            }
        }
        try read(cld_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", into: &variable)
        try read(cld_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", into: &fixed)
        func bitfield(_ b: fb_bitfield) -> PixelFormat.Channel { .init(offset: Int(b.offset), length: Int(b.length)) }
        let visual: FbdevLayout.Visual = switch Int32(fixed.visual) {
        case FB_VISUAL_TRUECOLOR: .trueColor
        case FB_VISUAL_DIRECTCOLOR: .directColor
        case FB_VISUAL_MONO01, FB_VISUAL_MONO10: .monochrome
        case FB_VISUAL_PSEUDOCOLOR, FB_VISUAL_STATIC_PSEUDOCOLOR: .palette
        default: .other(fixed.visual)
        }
        let layout = FbdevLayout(width: Int(variable.xres), height: Int(variable.yres),
                                 virtualWidth: Int(variable.xres_virtual), virtualHeight: Int(variable.yres_virtual),
                                 bitsPerPixel: Int(variable.bits_per_pixel),
                                 red: bitfield(variable.red), green: bitfield(variable.green), blue: bitfield(variable.blue),
                                 transparency: bitfield(variable.transp),
                                 lineLength: Int(fixed.line_length), memoryLength: Int(fixed.smem_len),
                                 isPackedPixels: fixed.type == UInt32(FB_TYPE_PACKED_PIXELS), packingType: fixed.type,
                                 visual: visual)
        let name = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (name, layout)
    }
}

/// What the two layout ioctls say, in plain numbers.
public struct FbdevLayout: Equatable, Sendable {
    /// Where a colour channel sits in a pixel, in bits from the least significant.
    public typealias Bitfield = PixelFormat.Channel

    /// How the pixels hold colour.
    public enum Visual: Equatable, Sendable {
        /// The bitfields hold the colour itself.
        case trueColor
        /// The bitfields index per-channel ramps (drawn as true colour with identity ramps).
        case directColor
        /// One bit a pixel.
        case monochrome
        /// Pixels index a palette.
        case palette
        case other(UInt32)
    }

    public var width: Int
    public var height: Int
    public var virtualWidth: Int
    public var virtualHeight: Int
    public var bitsPerPixel: Int
    public var red: Bitfield
    public var green: Bitfield
    public var blue: Bitfield
    /// Length 0 when the pixels have no alpha.
    public var transparency: Bitfield
    /// Bytes from one row to the next.
    public var lineLength: Int
    public var memoryLength: Int
    /// Packed pixels (the only kind drawn by writing pixels in a row).
    public var isPackedPixels: Bool
    /// `fb_fix_screeninfo.type`, to name the kind when it is not packed.
    public var packingType: UInt32
    public var visual: Visual

    /// The pixel format the bitfields describe, or why the pixels cannot be
    /// written as colours.
    public func pixelFormat() throws(PixelFormatError) -> PixelFormat {
        guard isPackedPixels else { throw .notPackedPixels(type: packingType) }
        switch visual {
        case .trueColor, .directColor: break
        case .monochrome: throw .notTrueColor(visual: "monochrome")
        case .palette: throw .notTrueColor(visual: "palette (pseudocolour)")
        case .other(let v): throw .notTrueColor(visual: "visual \(v)")
        }
        return try PixelFormat(bitsPerPixel: bitsPerPixel, red: red, green: green, blue: blue,
                               alpha: transparency.length > 0 ? transparency : nil)
    }

    public init(width: Int, height: Int, virtualWidth: Int, virtualHeight: Int, bitsPerPixel: Int,
                red: Bitfield, green: Bitfield, blue: Bitfield, transparency: Bitfield,
                lineLength: Int, memoryLength: Int, isPackedPixels: Bool, packingType: UInt32, visual: Visual) {
        self.width = width
        self.height = height
        self.virtualWidth = virtualWidth
        self.virtualHeight = virtualHeight
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.transparency = transparency
        self.lineLength = lineLength
        self.memoryLength = memoryLength
        self.isPackedPixels = isPackedPixels
        self.packingType = packingType
        self.visual = visual
    }
}
