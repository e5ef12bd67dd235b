// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import Fbdev
import SystemCalls
import SystemPackage

@Suite("Framebuffer device and console: what a node that is not one gives")
struct FbdevDeviceTests {
    @Test("a file that is not a framebuffer is named, with the ioctl and the reason")
    func notAFramebuffer() throws {
        let path = NSTemporaryDirectory() + "tiltmaze-not-fb-\(getpid())"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 64)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try FbdevDevice.describe(path: path)
        } throws: { error in
            guard let e = error as? DeviceError else { return false }
            return e.path == path && e.errno == ENOTTY && e.operation.contains("FBIOGET_VSCREENINFO")
                && e.description.contains("it is not a framebuffer")
        }
    }

    @Test("a node that does not exist fails the open, naming it")
    func missing() {
        #expect {
            _ = try FbdevDevice(path: "/dev/fb-tiltmaze-none")
        } throws: { error in
            (error as? DeviceError).map { $0.errno == ENOENT && $0.operation == "open" && $0.path == "/dev/fb-tiltmaze-none" } ?? false
        }
    }

    @Test("a pipe is not a virtual console, and asking its modes says so")
    func pipeIsNotAConsole() throws {
        let (read, write) = try FileDescriptor.pipe()
        defer { try? read.close(); try? write.close() }
        #expect(!Console.isConsole(read))
        #expect {
            _ = try Console(descriptor: read, name: "the pipe").modes()
        } throws: { error in
            (error as? DeviceError).map { $0.path == "the pipe" && $0.operation.contains("KDGETMODE") } ?? false
        }
    }
}

@Suite("Pixel formats from the driver's bitfields")
struct FbdevLayoutFormatTests {
    func layout(bpp: Int, red: (Int, Int), green: (Int, Int), blue: (Int, Int), packed: Bool = true,
                visual: FbdevLayout.Visual = .trueColor) -> FbdevLayout {
        FbdevLayout(width: 8, height: 8, virtualWidth: 8, virtualHeight: 8, bitsPerPixel: bpp,
                    red: .init(offset: red.0, length: red.1), green: .init(offset: green.0, length: green.1),
                    blue: .init(offset: blue.0, length: blue.1), transparency: .init(offset: 0, length: 0),
                    lineLength: 8 * bpp / 8, memoryLength: 64 * bpp / 8, isPackedPixels: packed, packingType: packed ? 0 : 1,
                    visual: visual)
    }

    @Test("RGB565 and XRGB8888 as the Pi and bochs report them")
    func common() throws {
        #expect(try layout(bpp: 16, red: (11, 5), green: (5, 6), blue: (0, 5)).pixelFormat() == .rgb565)
        #expect(try layout(bpp: 32, red: (16, 8), green: (8, 8), blue: (0, 8)).pixelFormat() == .xrgb8888)
        #expect(try layout(bpp: 16, red: (11, 5), green: (5, 6), blue: (0, 5), visual: .directColor).pixelFormat() == .rgb565)
    }

    @Test("a palette, planes or 8 bpp are refused with the reason")
    func refused() {
        #expect(throws: PixelFormatError.notTrueColor(visual: "palette (pseudocolour)")) {
            try layout(bpp: 8, red: (0, 8), green: (0, 8), blue: (0, 8), visual: .palette).pixelFormat()
        }
        #expect(throws: PixelFormatError.notPackedPixels(type: 1)) {
            try layout(bpp: 16, red: (11, 5), green: (5, 6), blue: (0, 5), packed: false).pixelFormat()
        }
        #expect {
            try layout(bpp: 8, red: (5, 3), green: (2, 3), blue: (0, 2)).pixelFormat()
        } throws: { error in
            guard case .unsupported(_, let reason)? = error as? PixelFormatError else { return false }
            return reason.contains("8 bits per pixel")
        }
    }
}
