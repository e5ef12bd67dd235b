// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CLinuxDisplay
import CUmockdev
import LibC

/// Answers the two ioctls a program asks a framebuffer for its layout
/// (`FBIOGET_VSCREENINFO`, `FBIOGET_FSCREENINFO`) as the kernel's fbdev
/// layer would for a `MockFramebuffer`: packed true colour, RGB565 at 16 bpp,
/// XRGB8888 at 32, `line_length` = width × bytes per pixel. Anything else
/// fails with ENOTTY. (Memory cannot be mapped from a umockdev node: drawing
/// is tested on memory-backed surfaces and on a real kernel.)
final class MockFramebufferIoctls: Sendable {
    let framebuffer: MockFramebuffer

    init(_ framebuffer: MockFramebuffer) { self.framebuffer = framebuffer }

    /// The bytes the kernel copies out for `request`, or nil when it is not one answered here.
    func answer(_ request: UInt) -> [UInt8]? {
        switch request {
        case cld_FBIOGET_VSCREENINFO:
            var v = fb_var_screeninfo()
            v.xres = UInt32(framebuffer.width)
            v.yres = UInt32(framebuffer.height)
            v.xres_virtual = v.xres
            v.yres_virtual = v.yres
            v.bits_per_pixel = UInt32(framebuffer.bitsPerPixel)
            if framebuffer.bitsPerPixel == 16 {
                (v.red.offset, v.red.length, v.green.offset, v.green.length, v.blue.offset, v.blue.length) = (11, 5, 5, 6, 0, 5)
            } else {
                (v.red.offset, v.red.length, v.green.offset, v.green.length, v.blue.offset, v.blue.length) = (16, 8, 8, 8, 0, 8)
            }
            return withUnsafeBytes(of: v) { Array($0) }
        case cld_FBIOGET_FSCREENINFO:
            var f = fb_fix_screeninfo()
            withUnsafeMutableBytes(of: &f.id) { id in
                for (i, byte) in framebuffer.name.utf8.prefix(15).enumerated() { id[i] = byte }
            }
            f.line_length = UInt32(framebuffer.width * framebuffer.bitsPerPixel / 8)
            f.smem_len = f.line_length * UInt32(framebuffer.height)
            f.type = UInt32(FB_TYPE_PACKED_PIXELS)
            f.visual = UInt32(FB_VISUAL_TRUECOLOR)
            return withUnsafeBytes(of: f) { Array($0) }
        default:
            return nil
        }
    }

    /// Attaches the answers to the framebuffer's node in `testbed`.
    func attach(to testbed: UnsafeMutablePointer<UMockdevTestbed>) throws(TestbedError) {
        try UmockdevIoctlGlue.attach(self, to: framebuffer.devicePath, in: testbed,
                                     signals: [("handle-ioctl", unsafeBitCast(handleFramebufferIoctl, to: GCallback.self))])
    }
}

/// `handle-ioctl`: copies the answer into the caller's struct, or fails with ENOTTY.
private let handleFramebufferIoctl: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                                    UnsafeMutableRawPointer?) -> gboolean = { _, clientPointer, userData in
    guard let clientPointer, let userData else { return 0 }
    guard let ioctls = Unmanaged<AnyObject>.fromOpaque(userData).takeUnretainedValue() as? MockFramebufferIoctls else { return 0 }
    let client = clientPointer.assumingMemoryBound(to: UMockdevIoctlClient.self)
    guard let answer = ioctls.answer(UInt(umockdev_ioctl_client_get_request(client))),
          let arg = umockdev_ioctl_client_get_arg(client) else {
        umockdev_ioctl_client_complete(client, -1, ENOTTY)
        return 1
    }
    var error: UnsafeMutablePointer<GError>? = nil
    guard let buffer = umockdev_ioctl_data_resolve(arg, 0, gsize(answer.count), &error), let bytes = buffer.pointee.data else {
        if let error { g_error_free(error) }
        umockdev_ioctl_client_complete(client, -1, EFAULT)
        return 1
    }
    for i in 0 ..< min(answer.count, Int(buffer.pointee.data_len)) { bytes[i] = answer[i] }
    umockdev_ioctl_client_complete(client, 0, 0)
    umockdev_ioctl_data_unref(buffer)
    return 1
}
