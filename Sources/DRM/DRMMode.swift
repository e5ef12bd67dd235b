// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CDRM

/// A display mode a connector offers: its size, refresh rate and timings
/// (kept whole, as the CRTC must be given them back).
public struct DRMMode: Sendable, Equatable, CustomStringConvertible {
    /// The kernel's timings, as `drmModeSetCrtc` takes them.
    public let info: drmModeModeInfo

    public init(_ info: drmModeModeInfo) { self.info = info }

    public var width: Int { Int(info.hdisplay) }
    public var height: Int { Int(info.vdisplay) }

    /// The mode's name ("1920x1080").
    public var name: String {
        withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Frames per second, from the pixel clock and the totals (more exact
    /// than the rounded `vrefresh`): 60.0, 59.94, 75.0.
    public var refreshRate: Double {
        let total = Double(info.htotal) * Double(info.vtotal)
        guard total > 0 else { return Double(info.vrefresh) }
        var rate = Double(info.clock) * 1000 / total
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
        if info.vscan > 1 { rate /= Double(info.vscan) }
        return rate
    }

    /// Whether the display itself prefers it (its native mode, from its EDID).
    public var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }

    /// Nanoseconds from one frame to the next.
    public var framePeriodNanoseconds: Int64 {
        refreshRate > 0 ? Int64((1e9 / refreshRate).rounded()) : 16_666_667
    }

    public var description: String {
        let rate = refreshRate
        let shown = abs(rate - rate.rounded()) < 0.005 ? "\(Int(rate.rounded()))" : String(format2: rate)
        return "\(width)×\(height) at \(shown) Hz"
    }

    public static func == (a: DRMMode, b: DRMMode) -> Bool {
        withUnsafeBytes(of: a.info) { x in withUnsafeBytes(of: b.info) { y in x.elementsEqual(y) } }
    }
}

extension String {
    /// Two decimals, without Foundation.
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
