// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import DRM
import MotionDevices

extension DoctorReport {
    /// Each DRM card with outputs (`--display kms`): its display, whether this
    /// user may open it, and whether DRM master is free (a desktop holds it
    /// while it runs).
    static func kmsCards(sysfs: String = "/sys") -> [DoctorLine] {
        let all = DRMCardInfo.all(sysfs: sysfs)
        guard !all.isEmpty else {
            return [.warn("kms", "no DRM card (nothing in /sys/class/drm): --display kms cannot be used; the framebuffer or the terminal can")]
        }
        // A card with no outputs at all only renders (a Pi's v3d beside its
        // vc4): no display could ever be plugged into it, so it is no warning.
        let cards = all.filter { !$0.connectors.isEmpty }
        guard !cards.isEmpty else {
            let renderers = all.map { $0.id + ($0.driver.map { " (\($0))" } ?? "") }.joined(separator: ", ")
            return [.warn("kms", "no DRM card has display outputs (\(renderers) only render): --display kms cannot be used; the framebuffer or the terminal can")]
        }
        return cards.map { info in
            let what = "\(info.id)" + (info.driver.map { " (\($0))" } ?? "")
            guard let connector = info.connectors.first(where: \.isConnected) else {
                let outputs = info.connectors.map(\.name).joined(separator: ", ")
                return .warn("kms", "\(what): no display connected\(outputs.isEmpty ? "" : " (\(outputs))"): plug one in, or check the cable and `video=` on the kernel command line")
            }
            let access = DeviceAccess.check(info.devicePath, need: .readWrite, grantedBy: .seat)
            guard access.allowed else { return .warn("kms", "\(what) \(connector.name): \(access.description)") }
            let display = "\(connector.name)" + (connector.modes.first.map { " \($0)" } ?? "")
            do {
                let card = try DRMCard(path: info.devicePath)
                guard card.supportsDumbBuffers else {
                    return .warn("kms", "\(what) \(display): the driver offers no dumb buffers, which --display kms draws into; use --display fb")
                }
                // Master is free when this open got it or can take it; closing the card gives it back.
                guard card.isMaster || (try? card.becomeMaster()) != nil else {
                    return .warn("kms", "\(what) \(display): another program holds DRM master (a desktop or another game): --display kms needs the console to itself; stop the desktop (sudo systemctl stop display-manager) or use --display terminal")
                }
                return .ok("kms", "\(what) \(display), \(info.devicePath) readable and writable, DRM master free")
            } catch {
                return .warn("kms", "\(what): \(error)")
            }
        }
    }
}
