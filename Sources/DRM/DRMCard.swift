// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CDRM
import SystemCalls
import SystemPackage
import LibC

/// An open DRM card (`/dev/dri/cardN`) for kernel mode setting: its display
/// objects, the CRTC's state, dumb buffers, page flips and their completion
/// events, and DRM master. Closed in `deinit`; when the master's descriptor
/// closes, even on SIGKILL, the kernel gives the display back to the console.
///
/// Failures are `DeviceError`s naming the card, the operation and errno.
public final class DRMCard {
    public let path: String
    let file: OwnedDescriptor
    /// The kernel driver's name: "vc4", "bochs-drm", "virtio_gpu".
    public let driver: String
    /// Written by the flip handler: allocated once, so a frame allocates nothing.
    private let flips: UnsafeMutablePointer<FlipRecord>

    /// Opens `path` read-write. Fails naming the node when it cannot be opened
    /// or is not a DRM device.
    public init(path: String) throws(DeviceError) {
        let fd: OwnedDescriptor
        do {
            fd = try OwnedDescriptor.open(FilePath(path), .readWrite)
        } catch {
            throw DeviceError(errno: error.rawValue, operation: "open", path: path)
        }
        guard let version = fd.withDescriptor({ drmGetVersion($0.rawValue) }) else {
            let code = errno
            throw DeviceError(errno: code == 0 ? ENOTTY : code, operation: "ask its driver (DRM_IOCTL_VERSION)", path: path,
                              detail: "it is not a DRM device (expected /dev/dri/cardN)")
        }
        driver = version.pointee.name.map { String(cString: $0) } ?? "?"
        drmFreeVersion(version)
        self.path = path
        file = fd
        flips = .allocate(capacity: 1)
        flips.initialize(to: FlipRecord())
    }

    deinit {
        // The descriptor closes itself after this (OwnedDescriptor).
        flips.deallocate()
    }

    // MARK: Master

    /// Whether this descriptor holds DRM master: only the master may set
    /// modes and flip.
    public var isMaster: Bool { file.withDescriptor { drmIsMaster($0.rawValue) } == 1 }

    /// Takes DRM master: granted to the first opener, again to one that
    /// dropped it, and to root; refused (EACCES/EBUSY) while another program,
    /// a desktop, holds it.
    public func becomeMaster() throws(DeviceError) {
        try call("become DRM master") { drmSetMaster($0) }
    }

    /// Gives DRM master up (to let another console or program set modes).
    public func dropMaster() throws(DeviceError) {
        try call("drop DRM master") { drmDropMaster($0) }
    }

    // MARK: Display objects

    /// Whether the driver offers dumb buffers (every KMS driver does).
    public var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return file.withDescriptor { drmGetCap($0.rawValue, UInt64(DRM_CAP_DUMB_BUFFER), &value) } == 0 && value != 0
    }

    public func resources() throws(DeviceError) -> DRMResources {
        let res = try object("read its display resources (DRM_IOCTL_MODE_GETRESOURCES)") { drmModeGetResources($0) }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        return DRMResources(crtcIDs: (0 ..< Int(r.count_crtcs)).map { r.crtcs[$0] },
                            connectorIDs: (0 ..< Int(r.count_connectors)).map { r.connectors[$0] },
                            encoderIDs: (0 ..< Int(r.count_encoders)).map { r.encoders[$0] },
                            maxWidth: Int(r.max_width), maxHeight: Int(r.max_height))
    }

    /// The connector with `id`, probing the display for its modes.
    public func connector(_ id: UInt32) throws(DeviceError) -> DRMConnector {
        let c = try object("read connector \(id)") { drmModeGetConnector($0, id) }
        defer { drmModeFreeConnector(c) }
        return DRMConnector(c.pointee)
    }

    /// Every connector of the card, in the card's order.
    public func connectors() throws(DeviceError) -> [DRMConnector] {
        var all: [DRMConnector] = []
        for id in try resources().connectorIDs { all.append(try connector(id)) }
        return all
    }

    public func encoder(_ id: UInt32) throws(DeviceError) -> DRMEncoder {
        let e = try object("read encoder \(id)") { drmModeGetEncoder($0, id) }
        defer { drmModeFreeEncoder(e) }
        return DRMEncoder(id: e.pointee.encoder_id, crtcID: e.pointee.crtc_id, possibleCRTCs: e.pointee.possible_crtcs)
    }

    /// The CRTC's present state, to put back later with `restore`.
    public func crtcState(_ id: UInt32) throws(DeviceError) -> DRMCRTCState {
        let c = try object("read CRTC \(id)") { drmModeGetCrtc($0, id) }
        defer { drmModeFreeCrtc(c) }
        let s = c.pointee
        return DRMCRTCState(id: s.crtc_id, bufferID: s.buffer_id, x: s.x, y: s.y, mode: s.mode_valid != 0 ? DRMMode(s.mode) : nil)
    }

    // MARK: Scan-out

    /// Shows `buffer` on `connector` through CRTC `crtc` in `mode` (a mode set: the display may blank a moment).
    public func setCRTC(_ crtc: UInt32, buffer: DRMDumbBuffer, connector: UInt32, mode: DRMMode) throws(DeviceError) {
        var connectorID = connector
        var info = mode.info
        try call("set CRTC \(crtc) to \(mode) on connector \(connector)") {
            drmModeSetCrtc($0, crtc, buffer.framebufferID, 0, 0, &connectorID, 1, &info)
        }
    }

    /// Puts a CRTC back as `state` was, driving `connector` (or off, when it
    /// had no mode or no framebuffer).
    public func restore(_ state: DRMCRTCState, connector: UInt32) throws(DeviceError) {
        var connectorID = connector
        if state.bufferID != 0, var info = state.mode?.info {
            try call("restore CRTC \(state.id)") {
                drmModeSetCrtc($0, state.id, state.bufferID, state.x, state.y, &connectorID, 1, &info)
            }
        } else {
            try call("switch CRTC \(state.id) off") { drmModeSetCrtc($0, state.id, 0, 0, 0, nil, 0, nil) }
        }
    }

    /// Makes a `width`×`height` XRGB8888 dumb buffer, mapped, with a framebuffer id to scan out.
    public func makeDumbBuffer(width: Int, height: Int) throws(DeviceError) -> DRMDumbBuffer {
        try DRMDumbBuffer(card: self, width: width, height: height)
    }

    // MARK: Page flips

    /// Asks CRTC `crtc` to scan out `buffer` from the next vertical blank
    /// on; `readFlipEvent` reports when it has. One flip may be pending at a
    /// time (EBUSY otherwise).
    public func pageFlip(crtc: UInt32, to buffer: DRMDumbBuffer) throws(DeviceError) {
        try call("flip CRTC \(crtc) to framebuffer \(buffer.framebufferID)") {
            drmModePageFlip($0, crtc, buffer.framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(flips))
        }
        flips.pointee.pending = true
    }

    /// Whether a flip was asked for and its event has not been read yet.
    public var flipPending: Bool { flips.pointee.pending }

    /// Waits up to `timeoutMilliseconds` for the card's events and reads
    /// them; the flip completed among them, or nil when none did in time.
    public func readFlipEvent(timeoutMilliseconds: Int32) throws(DeviceError) -> DRMFlipEvent? {
        let before = flips.pointee.completed
        switch file.withDescriptor({ $0.wait(for: .readable, timeoutMilliseconds: timeoutMilliseconds) }) {
        case .failure(let e): throw DeviceError(errno: e.rawValue, operation: "wait for its events", path: path)
        case .success(let events) where events.contains(.readable):
            var context = drmEventContext()
            context.version = Int32(cdrm_EVENT_CONTEXT_VERSION)
            context.page_flip_handler = flipHandler
            try call("read its events") { drmHandleEvent($0, &context) }
        case .success:
            break
        }
        return flips.pointee.completed != before ? flips.pointee.last : nil
    }
}

/// A completed page flip: the buffer asked for is on screen from here.
public struct DRMFlipEvent: Sendable, Equatable {
    /// The CRTC's vertical blank counter at the flip.
    public var sequence: UInt32
    /// When it happened, in nanoseconds of CLOCK_MONOTONIC (DRM's default clock).
    public var timestamp: Int64
}

struct FlipRecord {
    var pending = false
    var completed: UInt64 = 0
    var last = DRMFlipEvent(sequence: 0, timestamp: 0)
}

/// libdrm calls this from `drmHandleEvent` with the pointer given to the flip.
private let flipHandler: @convention(c) (Int32, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = {
    _, sequence, seconds, microseconds, user in
    guard let record = user?.assumingMemoryBound(to: FlipRecord.self) else { return }
    record.pointee.pending = false
    record.pointee.completed &+= 1
    record.pointee.last = DRMFlipEvent(sequence: sequence, timestamp: Int64(seconds) * 1_000_000_000 + Int64(microseconds) * 1000)
}
