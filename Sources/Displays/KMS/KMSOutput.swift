// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import DRM
import Fbdev
import Realtime
import SystemCalls
import LibC

/// The screen through kernel mode setting: two dumb buffers, one scanned out
/// while the other is drawn, exchanged by a page flip that the kernel
/// completes at the vertical blank, so a frame never tears (the Pi's
/// `/dev/fb0` is single-buffered and does). This is what LVGL's DRM driver
/// and SDL's kmsdrm do.
///
/// Only what changed is copied (`BackBufferDamage`): the back buffer is two
/// frames old, so a frame copies its own changed rectangles and the previous
/// frame's. The next frame's copy waits for the last flip to complete (the buffer it
/// writes is on screen until then), which paces drawing to the display.
///
/// The CRTC is saved before it is taken and put back by `restore()`; if the
/// process dies instead, closing the card's descriptor gives the display
/// back to the console (the kernel's own restore).
public final class KMSOutput: PixelOutput {
    public let card: DRMCard
    public let connector: DRMConnector
    public let mode: DRMMode
    private let crtc: UInt32
    private let saved: DRMCRTCState
    private let buffers: [DRMDumbBuffer]
    private let surfaces: [PixelSurface]
    /// The buffer on screen (or flipping onto it).
    private var front = 0
    private let damage = BackBufferDamage()
    private var released = false
    private var restored = false

    /// Flips completed, vertical blanks missed between them, and the time
    /// from a present to its flip.
    public private(set) var flips = 0
    public private(set) var missedVerticalBlanks = 0
    /// Frames copied and handed to the kernel as a flip.
    public private(set) var presented = 0
    /// Flips the kernel refused, and the errno of the last refusal.
    public private(set) var failedFlips = 0
    public private(set) var lastFlipErrno: Int32 = 0
    public let presentToFlip = LatencyHistogram()
    private let presentToFlipWindow = LatencyWindow()
    /// From the newest sample in a frame to the flip that shows it: how old
    /// the motion on screen is (what the player feels as lag).
    public let sampleAgeAtFlip = LatencyHistogram()
    private let sampleAgeWindow = LatencyWindow()
    private var lastSequence: UInt32?
    private var presentedAt: Int64 = 0
    /// The sample stamp of the frame to present next, and of the frame flipping.
    private var nextSampleTime: Int64 = 0
    private var presentedSampleTime: Int64 = 0

    /// How long a present waits for the last flip before skipping its frame.
    static let flipWaitMilliseconds: Int32 = 100
    /// How long letting the display go waits for the last flip: a flip that
    /// completed after the console took the display back would put the game's
    /// frame over it.
    static let finalFlipWaitMilliseconds: Int32 = 2000

    /// Takes the display of the card at `path`, or of the first card with a
    /// display connected: DRM master, the connector's preferred mode on a
    /// CRTC that can drive it, two buffers of that size; the first is shown
    /// at once (black). Fails, naming the card and what to do, when there is
    /// no card or display, another program holds DRM master, or a call fails.
    public init(path: String? = nil, sysfs: String = "/sys") throws(DisplayError) {
        let path = if let path { path } else { try Self.cardWithDisplay(sysfs: sysfs) }
        do throws(DeviceError) {
            card = try DRMCard(path: path)
        } catch {
            throw DisplayError(error)
        }
        if !card.isMaster {
            do throws(DeviceError) {
                try card.becomeMaster()
            } catch {
                throw .device(path: path, operation: error.operation, errno: error.errno,
                              advice: "another program (a desktop, another game) is showing this display: run the game on a console without a desktop (sudo systemctl stop display-manager), or use --display terminal")
            }
        }
        guard card.supportsDumbBuffers else {
            throw .device(path: path, operation: "draw (DRM_CAP_DUMB_BUFFER)", errno: ENOTSUP,
                          advice: "this driver offers no dumb buffers: use --display fb")
        }
        let display: TakenDisplay?
        do throws(DeviceError) {
            display = try Self.takeDisplay(of: card)
        } catch {
            throw DisplayError(error)
        }
        guard let display else {
            throw .missing("\(path): no display is connected to this card: plug one in, or name another card (--display kms:/dev/dri/cardN; `tiltmaze doctor` lists them)")
        }
        (connector, mode, crtc, saved, buffers) = (display.connector, display.mode, display.crtc, display.saved, display.buffers)
        surfaces = buffers.map {
            PixelSurface(base: $0.pixels, width: $0.width, height: $0.height, lineLength: $0.pitch, format: .xrgb8888)
        }
    }

    deinit { restore() }

    public var width: Int { mode.width }
    public var height: Int { mode.height }
    public var name: String { "\(card.path) \(connector.name)" }
    public var refreshPeriod: Int64? { mode.framePeriodNanoseconds }

    public func noteSampleTime(_ timestamp: Int64) { nextSampleTime = timestamp }

    public func present(_ changed: UnsafeBufferPointer<PixelRect>, of picture: Canvas) -> Int {
        guard !released, !restored else { return 0 }
        guard damage.hasWork(changed) else { return 0 }
        // The back buffer is on screen until the last flip completes.
        guard finishPendingFlip(waitingUpTo: Self.flipWaitMilliseconds) else {
            missedVerticalBlanks += 1
            damage.markStale()
            return 0
        }
        let back = 1 - front
        let bytes = damage.bringUpToDate(surfaces[back], with: picture, changed: changed)
        presentedAt = MonotonicClock.now()
        presentedSampleTime = nextSampleTime
        do {
            try card.pageFlip(crtc: crtc, to: buffers[back])
            front = back
            presented += 1
        } catch {
            // Lost master (another program took the display) or the CRTC is off: the frame is dropped.
            failedFlips += 1
            lastFlipErrno = error.errno
            damage.markStale()
        }
        return bytes
    }

    /// Waits for the pending flip, if any, and counts it; false when it is
    /// still pending after `milliseconds`.
    private func finishPendingFlip(waitingUpTo milliseconds: Int32) -> Bool {
        guard card.flipPending else { return true }
        takeFlipEvent(waitingUpTo: milliseconds)
        return !card.flipPending
    }

    /// Reads the completion of the pending flip, counting it.
    private func takeFlipEvent(waitingUpTo milliseconds: Int32) {
        guard let event = try? card.readFlipEvent(timeoutMilliseconds: milliseconds) else { return }
        flips += 1
        if let last = lastSequence, event.sequence &- last > 1 { missedVerticalBlanks += Int(event.sequence &- last) - 1 }
        lastSequence = event.sequence
        if presentedAt > 0, event.timestamp >= presentedAt { presentToFlip.record(event.timestamp - presentedAt) }
        if presentedSampleTime > 0, event.timestamp >= presentedSampleTime {
            sampleAgeAtFlip.record(event.timestamp - presentedSampleTime)
        }
    }

    /// Finishes the pending flip and drops DRM master, so the console or
    /// program switched to can set its own mode.
    public func release() {
        guard !released, !restored else { return }
        _ = finishPendingFlip(waitingUpTo: Self.finalFlipWaitMilliseconds)
        released = true
        try? card.dropMaster()
    }

    /// Takes master again and sets the mode again on the buffer last shown;
    /// the next present copies the whole picture.
    public func acquire() {
        guard released, !restored else { return }
        released = false
        damage.markStale()
        lastSequence = nil
        if !card.isMaster { try? card.becomeMaster() }
        try? card.setCRTC(crtc, buffer: buffers[front], connector: connector.id, mode: mode)
    }

    /// Puts the CRTC back as it was found (the console's framebuffer); the
    /// buffers go with this object.
    public func restore() {
        guard !restored else { return }
        _ = finishPendingFlip(waitingUpTo: Self.finalFlipWaitMilliseconds)
        restored = true
        if released { return }
        try? card.restore(saved, connector: connector.id)
    }

    /// "  flips 60/0 flip 8.1/16.4ms age@flip 12.0/20.1ms": flips and missed
    /// vertical blanks so far, the present-to-flip time's p50/p99 and the
    /// shown sample's age at its flip, p50/p99, since the last call.
    public func statistics(into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        presentToFlipWindow.advance(presentToFlip)
        sampleAgeWindow.advance(sampleAgeAtFlip)
        var w = ByteWriter(text)
        w.append("  flips ")
        w.appendDecimal(flips)
        w.append(UInt8(ascii: "/"))
        w.appendDecimal(missedVerticalBlanks)
        if failedFlips > 0 {
            w.append(" refused ")
            w.appendDecimal(failedFlips)
            w.append(" errno ")
            w.appendDecimal(Int(lastFlipErrno))
        }
        w.append(" flip ")
        FrameStatistics.pair(presentToFlipWindow, divisor: 1e6, decimals: 1, into: &w)
        w.append("ms age@flip ")
        FrameStatistics.pair(sampleAgeWindow, divisor: 1e6, decimals: 1, into: &w)
        w.append("ms")
        return w.count
    }

    /// "card0 HDMI-A-1: 1200 frames presented, 1200 flips completed, 0 vertical
    /// blanks missed, 0 refused; present to flip p50/p99 8.1/16.4 ms; sample age
    /// at flip p50/p99 12.0/20.1 ms": the game's whole run, counted from the
    /// kernel's flip events.
    public var summary: String? {
        let whole = LatencyWindow(), age = LatencyWindow()
        whole.advance(presentToFlip)
        age.advance(sampleAgeAtFlip)
        // Written as the live figures write them (FrameStatistics.pair), so the two read alike.
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        func pair(_ w: LatencyWindow) -> String {
            var writer = ByteWriter(buffer)
            FrameStatistics.pair(w, divisor: 1e6, decimals: 1, into: &writer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self) + " ms"
        }
        return "\(name): \(presented) frames presented, \(flips) flips completed, \(missedVerticalBlanks) vertical blanks missed, "
            + "\(failedFlips) refused; present to flip p50/p99 \(pair(whole)); sample age at flip p50/p99 \(pair(age))"
    }

    /// The first card sysfs lists with a display connected.
    static func cardWithDisplay(sysfs: String) throws(DisplayError) -> String {
        let cards = DRMCardInfo.all(sysfs: sysfs)
        guard let card = cards.first(where: \.hasConnectedDisplay) else {
            // Suggest a framebuffer only where there is one (not the Sense HAT's LED matrix).
            let framebuffer = FramebufferInfo.all(sysfs: sysfs).contains { !$0.isSenseHatMatrix }
            throw .missing(cards.isEmpty
                ? "no DRM card (nothing in \(sysfs)/class/drm): this kernel has no KMS driver for the display; "
                    + (framebuffer ? "use --display fb or --display terminal" : "and no framebuffer either: use --display terminal")
                : "no DRM card has a display connected (\(cards.map(\.id).joined(separator: ", "))): plug one in, or use --display terminal")
        }
        return card.devicePath
    }

    /// What the output takes of a card: a connected display and its preferred
    /// mode, the CRTC to drive it and that CRTC's state before, two buffers
    /// of the mode's size, the first shown (black). Nil when no display is connected.
    private struct TakenDisplay {
        let connector: DRMConnector
        let mode: DRMMode
        let crtc: UInt32
        let saved: DRMCRTCState
        let buffers: [DRMDumbBuffer]
    }

    private static func takeDisplay(of card: DRMCard) throws(DeviceError) -> TakenDisplay? {
        guard let connector = try card.connectors().first(where: { $0.status == .connected && $0.preferredMode != nil }),
              let mode = connector.preferredMode else { return nil }
        let crtc = try crtc(for: connector, on: card)
        let saved = try card.crtcState(crtc)
        let buffers = [try card.makeDumbBuffer(width: mode.width, height: mode.height),
                       try card.makeDumbBuffer(width: mode.width, height: mode.height)]
        try card.setCRTC(crtc, buffer: buffers[0], connector: connector.id, mode: mode)
        return TakenDisplay(connector: connector, mode: mode, crtc: crtc, saved: saved, buffers: buffers)
    }

    /// The CRTC driving `connector` now, else the first its encoders can use.
    static func crtc(for connector: DRMConnector, on card: DRMCard) throws(DeviceError) -> UInt32 {
        if connector.encoderID != 0 {
            let encoder = try card.encoder(connector.encoderID)
            if encoder.crtcID != 0 { return encoder.crtcID }
        }
        let crtcs = try card.resources().crtcIDs
        for id in connector.encoderIDs {
            let encoder = try card.encoder(id)
            for (i, crtc) in crtcs.enumerated() where encoder.possibleCRTCs & (1 << UInt32(i)) != 0 { return crtc }
        }
        throw DeviceError(errno: ENODEV, operation: "find a CRTC for connector \(connector.name)", path: card.path)
    }
}
