// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CDRM

/// A display output (HDMI-A-1, DSI-1, Virtual-1) and what is attached to it.
public struct DRMConnector: Sendable, Equatable, CustomStringConvertible {
    public enum Status: Sendable, Equatable {
        case connected, disconnected, unknown
    }

    public let id: UInt32
    /// The name the kernel gives it everywhere (sysfs, `video=` on the kernel
    /// command line): type and number, "HDMI-A-1".
    public let name: String
    public let status: Status
    /// The modes the display offers, the preferred one first as the kernel sorts them.
    public let modes: [DRMMode]
    /// The encoder driving it now, 0 when none.
    public let encoderID: UInt32
    /// Every encoder that can drive it.
    public let encoderIDs: [UInt32]
    /// The display's size in millimetres, 0 when unknown.
    public let millimetres: (width: Int, height: Int)

    init(_ c: drmModeConnector) {
        id = c.connector_id
        let type = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown\(c.connector_type)"
        name = "\(type)-\(c.connector_type_id)"
        status = switch c.connection {
        case DRM_MODE_CONNECTED: .connected
        case DRM_MODE_DISCONNECTED: .disconnected
        default: .unknown
        }
        modes = (0 ..< Int(c.count_modes)).map { DRMMode(c.modes[$0]) }
        encoderID = c.encoder_id
        encoderIDs = (0 ..< Int(c.count_encoders)).map { c.encoders[$0] }
        millimetres = (Int(c.mmWidth), Int(c.mmHeight))
    }

    /// The mode to use: the preferred one, else the first (the largest).
    public var preferredMode: DRMMode? { modes.first(where: \.isPreferred) ?? modes.first }

    public var description: String {
        switch status {
        case .connected: "\(name) connected" + (preferredMode.map { ", \($0)" } ?? ", no modes")
        case .disconnected: "\(name) disconnected"
        case .unknown: "\(name) (connection unknown)"
        }
    }

    public static func == (a: DRMConnector, b: DRMConnector) -> Bool {
        a.id == b.id && a.name == b.name && a.status == b.status && a.modes == b.modes && a.encoderID == b.encoderID
            && a.encoderIDs == b.encoderIDs && a.millimetres == b.millimetres
    }
}

/// An encoder: which CRTCs may feed it, and which does now.
public struct DRMEncoder: Sendable, Equatable {
    public let id: UInt32
    /// The CRTC feeding it now, 0 when none.
    public let crtcID: UInt32
    /// Bit i set: the card's i-th CRTC (in `DRMResources.crtcIDs` order) can feed it.
    public let possibleCRTCs: UInt32
}

/// The card's display objects, by id.
public struct DRMResources: Sendable, Equatable {
    public let crtcIDs: [UInt32]
    public let connectorIDs: [UInt32]
    public let encoderIDs: [UInt32]
    /// The largest framebuffer the card scans out.
    public let maxWidth: Int
    public let maxHeight: Int
}

/// A CRTC's state: the framebuffer it scans out and the mode, as saved
/// before taking the display and put back after.
public struct DRMCRTCState: Sendable {
    public let id: UInt32
    /// The framebuffer scanned out, 0 when none.
    public let bufferID: UInt32
    public let x: UInt32
    public let y: UInt32
    /// The mode, when one is set.
    public let mode: DRMMode?
}
