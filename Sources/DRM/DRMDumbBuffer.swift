// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CDRM
import SystemCalls
import SystemPackage
import LibC

/// A dumb buffer: plain memory the card can scan out, XRGB8888 (32 bits a
/// pixel, the top byte unused), mapped for drawing, with the framebuffer id
/// that CRTCs and flips take. The card's objects release themselves
/// (`DumbBufferObjects`), the framebuffer first; the mapping is unmapped
/// after.
public final class DRMDumbBuffer {
    /// The card, kept open while the buffer lives (its objects hold it).
    public var card: DRMCard { objects.card }
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `width` × 4; drivers round up).
    public let pitch: Int
    private let objects: DumbBufferObjects
    public var handle: UInt32 { objects.handle }
    /// What `setCRTC` and `pageFlip` take.
    public var framebufferID: UInt32 { objects.framebufferID }
    private let mapping: MemoryMapping

    /// The first pixel; `pitch` × `height` bytes are writable from here.
    public var pixels: UnsafeMutableRawPointer { mapping.base }

    init(card: DRMCard, width: Int, height: Int) throws(DeviceError) {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        try card.call("make a \(width)×\(height) dumb buffer (DRM_IOCTL_MODE_CREATE_DUMB)") {
            drmModeCreateDumbBuffer($0, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        }
        // From here a throw destroys the buffer (and the framebuffer once made): `objects` owns them.
        var objects = DumbBufferObjects(card: card, handle: handle)
        var offset: UInt64 = 0
        let mapping: MemoryMapping
        try card.call("map dumb buffer \(handle) (DRM_IOCTL_MODE_MAP_DUMB)") { drmModeMapDumbBuffer($0, handle, &offset) }
        do {
            mapping = try card.file.withDescriptor { fd throws(Errno) in try MemoryMapping(fd, length: Int(size), offset: Int64(offset)) }
        } catch {
            throw DeviceError(errno: error.rawValue, operation: "map dumb buffer \(handle) (\(size) bytes)", path: card.path)
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var framebuffer: UInt32 = 0
        let added = card.file.withDescriptor { fd in withUnsafeMutableBytes(of: &handles) { h in
            withUnsafeMutableBytes(of: &pitches) { p in
                withUnsafeMutableBytes(of: &offsets) { o in
                    drmModeAddFB2(fd.rawValue, UInt32(width), UInt32(height), cdrm_FORMAT_XRGB8888,
                                  h.baseAddress!.assumingMemoryBound(to: UInt32.self), p.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                  o.baseAddress!.assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        } }
        try drmCall(card.path, "make a framebuffer of dumb buffer \(handle) (DRM_IOCTL_MODE_ADDFB2)", added)
        objects.framebufferID = framebuffer
        self.width = width
        self.height = height
        self.pitch = Int(pitch)
        self.objects = objects
        self.mapping = mapping
    }
}

/// A dumb buffer's objects on the card, released when their one owner goes:
/// the framebuffer made of it (when there is one), then the buffer. It holds
/// the card, so the card's descriptor is open until both are gone, whatever
/// order the owner's properties go in. The memory stays mapped until its
/// `MemoryMapping` goes.
struct DumbBufferObjects: ~Copyable {
    let card: DRMCard
    let handle: UInt32
    /// 0 until the framebuffer is made.
    var framebufferID: UInt32 = 0

    init(card: DRMCard, handle: UInt32) {
        self.card = card
        self.handle = handle
    }

    deinit {
        card.file.withDescriptor { fd in
            if framebufferID != 0 { _ = drmModeRmFB(fd.rawValue, framebufferID) }
            _ = drmModeDestroyDumbBuffer(fd.rawValue, handle)
        }
    }
}
