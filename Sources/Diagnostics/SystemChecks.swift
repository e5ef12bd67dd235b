// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import DRM
import Fbdev
import IIO
import SystemCalls
import SystemPackage
import MotionCore
import MotionDevices
import LibC

/// The checks of `doctor` that are not about a sensor.
extension DoctorReport {
    /// libiio and libevdev: the program would not have started without them,
    /// so this says which versions and copies it runs on.
    static func libraries() -> DoctorLine {
        let iioFile = LoadedLibrary.path(startingWith: "libiio.so").map { " (\($0))" } ?? ""
        let evdevFile = LoadedLibrary.path(startingWith: "libevdev.so") ?? "linked"
        return .ok("libraries", "libiio \(IIOContext.libraryVersion)\(iioFile), libevdev (\(evdevFile))")
    }

    /// Membership of the group the udev rules grant.
    static func group() -> DoctorLine {
        let group = DeviceAccess.ruleGroup
        if geteuid() == 0 {
            return .ok("group", "running as root, which may use every device; play as your own user once the udev rules are in (\(UdevGuide.current.instructions))")
        }
        switch GroupMembership.of(group) {
        case .member:
            return .ok("group", "you are in group \(group)")
        case .pendingRelogin:
            return .warn("group", "you were added to group \(group) but this login predates it: log out and in again")
        case .notMember:
            return .warn("group", "you are not in group \(group): sudo usermod -aG \(group) $USER, then log out and in again")
        case .missing:
            return .warn("group", "there is no group \(group): the udev rules are not installed (\(UdevGuide.current.steps))")
        }
    }

    /// Each framebuffer: what it is, its format, and whether it may be drawn on.
    static func framebuffers() -> [DoctorLine] {
        let all = FramebufferInfo.all()
        guard !all.isEmpty else {
            return [.warn("framebuffer", "none (no fb* in /sys/class/graphics): the game draws in the terminal")]
        }
        return all.map { fb in
            let what = "\(fb.id) \"\(fb.name)\"\(fb.isSenseHatMatrix ? " (Sense HAT LED matrix)" : "")"
            let access = DeviceAccess.check(fb.devicePath, need: .readWrite, grantedBy: .seat)
            if !access.allowed {
                // Without access only sysfs can say what it is.
                return .warn("framebuffer", "\(what) \(fb.width)×\(fb.height), \(fb.bitsPerPixel) bpp: \(access.description)")
            }
            // The layout the driver gives the game (the same ioctls it draws by).
            do {
                let (_, layout) = try FbdevDevice.describe(path: fb.devicePath)
                do {
                    let format = try layout.pixelFormat()
                    return .ok("framebuffer", "\(what) \(layout.width)×\(layout.height), \(format), line length \(layout.lineLength) bytes, \(fb.devicePath) readable and writable")
                } catch {
                    return .warn("framebuffer", "\(what) \(layout.width)×\(layout.height): cannot draw \(error); set a 16 or 32 bpp true-colour mode (hardware.md, \"The framebuffer\")")
                }
            } catch {
                return .warn("framebuffer", "\(what): \(error)")
            }
        }
    }

    /// Whether colours reach the terminal as 24-bit or through the 256-colour palette.
    static func terminal(_ environment: [String: String], truecolour: Bool) -> DoctorLine {
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            return .warn("terminal", "TERM is \(term.isEmpty ? "unset" : "dumb"): play from a terminal (the console, SSH, a terminal emulator)")
        }
        if truecolour {
            return .ok("terminal", "truecolour (COLORTERM=\(environment["COLORTERM"] ?? ""), TERM=\(term))")
        } else if term == "linux" {
            return .ok("terminal", "the Linux console (TERM=linux): its 256-colour palette, which the game uses")
        } else {
            return .warn("terminal", "256 colours (COLORTERM is not truecolor); if your terminal shows 24-bit colour, export COLORTERM=truecolor")
        }
    }

    /// Whether settings and calibration can be saved: the game's own check
    /// at start, so the advice is the same (a read-only file system is
    /// remounted, a folder of someone else's has its owner looked at).
    static func config(_ environment: [String: String]) -> DoctorLine {
        switch ConfigDirectory.writability(environment: environment) {
        case .writable(let directory): return .ok("config", "\(directory) is writable")
        case .willBeMade(let directory, let parent): return .ok("config", "\(directory) will be made on first save (\(parent) is writable)")
        case let other: return .warn("config", other.problem ?? "")
        }
    }
}
