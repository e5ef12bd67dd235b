// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage

/// A DRM card as sysfs describes it (`/sys/class/drm/cardN`), with its
/// connectors (`cardN-HDMI-A-1`): read without opening the device, so any
/// user can list them and a program can pick the card that has a display.
public struct DRMCardInfo: Equatable, Sendable {
    /// "card0".
    public var id: String
    /// The kernel driver bound to it ("vc4", "bochs-drm"), from the device's driver link.
    public var driver: String?
    public var connectors: [Connector]

    public struct Connector: Equatable, Sendable {
        /// "HDMI-A-1".
        public var name: String
        /// "connected", "disconnected" or "unknown".
        public var status: String
        /// The modes the display offers, as sysfs lists them ("1920x1080").
        public var modes: [String]

        public init(name: String, status: String, modes: [String]) {
            self.name = name
            self.status = status
            self.modes = modes
        }

        public var isConnected: Bool { status == "connected" }
    }

    public var devicePath: String { "/dev/dri/\(id)" }

    /// Whether a display is attached to one of its connectors.
    public var hasConnectedDisplay: Bool { connectors.contains(where: \.isConnected) }

    /// Every `cardN` under `<sysfs>/class/drm`, in number order (render
    /// nodes and connectors are not cards).
    public static func all(sysfs: String = "/sys") -> [DRMCardInfo] {
        let base = sysfs + "/class/drm"
        let entries = Sysfs.entries(of: base)
        let number = { (id: String) in Int(id.dropFirst(4)) ?? Int.max }
        return entries.filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }.sorted { number($0) < number($1) }.map { id in
            let connectors = entries.filter { $0.hasPrefix(id + "-") }.sorted().map { entry in
                Connector(name: String(entry.dropFirst(id.count + 1)),
                          status: Sysfs.firstLine(of: "\(base)/\(entry)/status") ?? "unknown",
                          modes: (Sysfs.lines(of: "\(base)/\(entry)/modes") ?? []).filter { !$0.isEmpty }.map(String.init))
            }
            let driver = (try? FilePath("\(base)/\(id)/device/driver").resolved().get())?.lastComponent?.string
            return DRMCardInfo(id: id, driver: driver, connectors: connectors)
        }
    }
}
