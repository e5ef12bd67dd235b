// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CDRM
import SystemCalls
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A dumb buffer: plain memory the card can scan out, XRGB8888 (32 bits a
/// pixel, the top byte unused), mapped for drawing, with the framebuffer id
/// that CRTCs and flips take. Released, in order, in `deinit`.
public final class DRMDumbBuffer {
    /// Kept so the card outlives its buffers.
    public let card: DRMCard
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `width` × 4; drivers round up).
    public let pitch: Int
    public let handle: UInt32
    /// What `setCRTC` and `pageFlip` take.
    public let framebufferID: UInt32
    private let mapping: MemoryMapping

    /// The first pixel; `pitch` × `height` bytes are writable from here.
    public var pixels: UnsafeMutableRawPointer { mapping.base }

    init(card: DRMCard, width: Int, height: Int) throws(DeviceError) {
        let fd = card.descriptor.rawValue
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        try drmCall(card.path, "make a \(width)×\(height) dumb buffer (DRM_IOCTL_MODE_CREATE_DUMB)",
                    drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size))
        var offset: UInt64 = 0
        let mapping: MemoryMapping
        do throws(DeviceError) {
            try drmCall(card.path, "map dumb buffer \(handle) (DRM_IOCTL_MODE_MAP_DUMB)", drmModeMapDumbBuffer(fd, handle, &offset))
            do {
                mapping = try MemoryMapping(card.descriptor, length: Int(size), offset: Int64(offset))
            } catch {
                throw DeviceError(errno: error.rawValue, operation: "map dumb buffer \(handle) (\(size) bytes)", path: card.path)
            }
        } catch {
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var framebuffer: UInt32 = 0
        let added = withUnsafeMutableBytes(of: &handles) { h in
            withUnsafeMutableBytes(of: &pitches) { p in
                withUnsafeMutableBytes(of: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), cdrm_FORMAT_XRGB8888,
                                  h.baseAddress!.assumingMemoryBound(to: UInt32.self), p.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                  o.baseAddress!.assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        do {
            try drmCall(card.path, "make a framebuffer of dumb buffer \(handle) (DRM_IOCTL_MODE_ADDFB2)", added)
        } catch {
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        self.card = card
        self.width = width
        self.height = height
        self.pitch = Int(pitch)
        self.handle = handle
        self.framebufferID = framebuffer
        self.mapping = mapping
    }

    deinit {
        let fd = card.descriptor.rawValue
        _ = drmModeRmFB(fd, framebufferID)
        // The mapping keeps the memory until it is unmapped, after this body.
        _ = drmModeDestroyDumbBuffer(fd, handle)
    }
}
