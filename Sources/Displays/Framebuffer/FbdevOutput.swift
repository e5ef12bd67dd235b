// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev

/// A framebuffer device as an output: the changed rectangles are copied
/// straight into its memory after the vertical blank, where the driver
/// offers a wait for one. The memory is what is scanned out, so a copy can
/// still tear (the Pi's DRM fbdev emulation is single-buffered); KMS does not.
public final class FbdevOutput: PixelOutput {
    public let device: FramebufferDevice

    public init(device: FramebufferDevice) { self.device = device }

    /// Opens the framebuffer at `path` (see `FramebufferDevice`).
    public convenience init(path: String) throws(DisplayError) {
        self.init(device: try FramebufferDevice(path: path))
    }

    public var width: Int { device.layout.width }
    public var height: Int { device.layout.height }
    public var name: String { device.path }

    public func present(_ changed: UnsafeBufferPointer<PixelRect>, of picture: Canvas) -> Int {
        guard !changed.isEmpty else { return 0 }
        device.waitForVerticalBlank()
        var bytes = 0
        for rect in changed { bytes += device.surface.copy(rect, from: picture) }
        return bytes
    }
}
