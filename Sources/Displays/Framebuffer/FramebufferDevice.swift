// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev
import SystemCalls
import LibC

/// A framebuffer the game can draw on: the device (`FbdevDevice`) with its
/// pixel format read from the driver's bitfields and a `PixelSurface`
/// over the visible part of its memory.
///
/// What the driver says is what is used: `line_length` as the stride, the
/// visible resolution, the bitfields. A format that cannot be drawn
/// (palette, monochrome, planes, an odd depth) is refused with the reason and
/// what to do, before anything is drawn.
public final class FramebufferDevice {
    public let device: FbdevDevice
    public let format: PixelFormat
    public let surface: PixelSurface
    /// FBIO_WAITFORVSYNC answered once; nil until tried.
    private var vsyncWorks: Bool?

    public var path: String { device.path }
    /// The driver's name for it: "bochs-drmdrmfb", "RPi-Sense FB".
    public var name: String { device.name }
    public var layout: FbdevLayout { device.layout }

    /// Opens `path`, reads its layout and maps its memory. Fails, naming the
    /// node, when it cannot be opened (EACCES: the video group or the udev
    /// rules), is not a framebuffer, or holds a format that cannot be drawn.
    public init(path: String) throws(DisplayError) {
        let device: FbdevDevice
        do throws(DeviceError) {
            device = try FbdevDevice(path: path)
        } catch {
            throw DisplayError(error)
        }
        do throws(PixelFormatError) {
            format = try device.layout.pixelFormat()
        } catch {
            throw .format(path: path, error)
        }
        self.device = device
        surface = PixelSurface(base: device.memory, width: device.layout.width, height: device.layout.height,
                                     lineLength: device.layout.lineLength, format: format)
    }

    /// Why the framebuffer at `path` holds a format that cannot be drawn,
    /// from the driver's layout (opened read-only, nothing mapped); nil when
    /// it can be drawn, or cannot be opened (opening it to draw says why).
    public static func formatProblem(path: String) -> DisplayError? {
        guard let (_, layout) = try? FbdevDevice.describe(path: path) else { return nil }
        do throws(PixelFormatError) {
            _ = try layout.pixelFormat()
            return nil
        } catch {
            return .format(path: path, error)
        }
    }

    /// Waits for the next vertical blank where the driver supports it
    /// (`FBIO_WAITFORVSYNC`); false, at once, where it does not (asked once).
    @discardableResult
    public func waitForVerticalBlank() -> Bool {
        guard vsyncWorks != false else { return false }
        let works = (try? device.waitForVerticalBlank()) != nil
        vsyncWorks = works
        return works
    }
}
