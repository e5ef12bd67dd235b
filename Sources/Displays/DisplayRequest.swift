// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import DRM
import Fbdev
import SystemPackage
import SystemCalls

/// What `--display` asks for: `auto`, `terminal`, `kms`, `kms:/dev/dri/cardN`,
/// `fb`, `fb:/dev/fbN`, `sensehat` or `sensehat:/dev/fbN`, or a comma list of a screen and the
/// Sense HAT (`fb,sensehat`).
public struct DisplaySelection: Equatable, Sendable {
    /// The screen (terminal or framebuffer), if one was asked for.
    public var screen: DisplayRequest?
    /// The Sense HAT's LED matrix, if asked for: its node, or nil to find it.
    public var senseHat: String??

    public init(screen: DisplayRequest?, senseHat: String?? = nil) {
        self.screen = screen
        self.senseHat = senseHat
    }

    /// Nil when a part is not one of the forms, or two screens (or two
    /// matrices) are asked for at once.
    public init?(argument: String) {
        var screen: DisplayRequest?
        var senseHat: String??
        for part in argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if part == "sensehat" || part.hasPrefix("sensehat:") {
                guard senseHat == nil, part != "sensehat:" else { return nil }
                let node = String(part.dropFirst("sensehat".count).drop { $0 == ":" })
                senseHat = .some(node.isEmpty ? nil : (node.hasPrefix("/") ? node : "/dev/" + node))
            } else {
                guard screen == nil, let request = DisplayRequest(argument: part) else { return nil }
                screen = request
            }
        }
        guard screen != nil || senseHat != nil else { return nil }
        self.init(screen: screen, senseHat: senseHat)
    }

    public static let forms = DisplayRequest.forms + ["sensehat", "sensehat:/dev/fbN", "fb,sensehat", "kms,sensehat", "terminal,sensehat"]

    /// The selection as `--display` takes it ("auto", "kms,sensehat:/dev/fb1"):
    /// `init(argument:)` reads it back as the same selection.
    public var argument: String {
        var parts: [String] = []
        if let screen { parts.append(screen.argument) }
        if let senseHat { parts.append(senseHat.map { "sensehat:" + $0 } ?? "sensehat") }
        return parts.joined(separator: ",")
    }

    /// The Sense HAT's matrix among `framebuffers`, or the node asked for.
    public func senseHatPath(framebuffers: [FramebufferInfo] = FramebufferInfo.all()) -> String? {
        guard let asked = senseHat else { return nil }
        return asked ?? framebuffers.first(where: \.isSenseHatMatrix)?.devicePath
    }
}

/// One screen `--display` can name: `auto`, `terminal`, `kms`,
/// `kms:/dev/dri/cardN`, `fb` or `fb:/dev/fbN`.
public enum DisplayRequest: Equatable, Sendable {
    /// On a Linux virtual console: KMS where a card with a display can be
    /// taken, else a framebuffer that can be drawn; the terminal otherwise.
    case auto
    case terminal
    /// Kernel mode setting: the first card with a display connected, or the card given.
    case kms(String?)
    /// A framebuffer: the first screen one (not the Sense HAT matrix), or the node given.
    case framebuffer(String?)

    public init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "terminal": self = .terminal
        case "fb": self = .framebuffer(nil)
        case "kms": self = .kms(nil)
        default:
            if let node = Self.node(argument, after: "fb:", in: "/dev/") {
                self = .framebuffer(node)
            } else if let node = Self.node(argument, after: "kms:", in: "/dev/dri/") {
                self = .kms(node)
            } else {
                return nil
            }
        }
    }

    /// "fb:fb1" → "/dev/fb1", "fb:/dev/fb1" as it is; nil without the prefix or a name after it.
    private static func node(_ argument: String, after prefix: String, in directory: String) -> String? {
        guard argument.hasPrefix(prefix), argument.count > prefix.count else { return nil }
        let node = String(argument.dropFirst(prefix.count))
        return node.hasPrefix("/") ? node : directory + node
    }

    public static let forms = ["auto", "terminal", "kms", "kms:/dev/dri/cardN", "fb", "fb:/dev/fbN"]

    /// The request as `--display` takes it; `init(argument:)` reads it back.
    public var argument: String {
        switch self {
        case .auto: "auto"
        case .terminal: "terminal"
        case .kms(let node): node.map { "kms:" + $0 } ?? "kms"
        case .framebuffer(let node): node.map { "fb:" + $0 } ?? "fb"
        }
    }

    /// Where the game will be drawn, and why, in a few words for the status line.
    public enum Choice: Equatable, Sendable {
        case terminal(reason: String?)
        /// KMS on the card at `path`, nil to take the first with a display.
        case kms(path: String?, reason: String?)
        case framebuffer(path: String, reason: String?)
    }

    /// Decides, looking at standard input (`input`), the DRM cards and the
    /// framebuffers sysfs lists. An explicit device is not checked here:
    /// opening it gives the precise error.
    public func choose(input: Int32 = 0, cards: @autoclosure () -> [DRMCardInfo] = DRMCardInfo.all(),
                       framebuffers: @autoclosure () -> [FramebufferInfo] = FramebufferInfo.all()) -> Choice {
        switch self {
        case .terminal:
            return .terminal(reason: nil)
        case .kms(let path):
            return .kms(path: path, reason: nil)
        case .framebuffer(let path?):
            return .framebuffer(path: path, reason: nil)
        case .framebuffer(nil):
            return .framebuffer(path: framebuffers().first { !$0.isSenseHatMatrix }?.devicePath ?? "/dev/fb0", reason: nil)
        case .auto:
            guard VirtualConsole.isVirtualConsole(input) else { return .terminal(reason: "not a console") }
            if let card = cards().first(where: \.hasConnectedDisplay), FilePath(card.devicePath).isAccessible([.read, .write]) {
                return .kms(path: card.devicePath, reason: "console")
            }
            let framebuffers = framebuffers()
            guard let fb = framebuffers.first(where: { !$0.isSenseHatMatrix }) else { return .terminal(reason: "no framebuffer") }
            guard FilePath(fb.devicePath).isAccessible([.read, .write]) else {
                return .terminal(reason: "no permission for \(fb.devicePath): join group video or tiltmaze")
            }
            // A mode the game cannot draw (a palette, 8 bpp) leaves the terminal.
            if FramebufferDevice.formatProblem(path: fb.devicePath) != nil {
                return .terminal(reason: "\(fb.devicePath) is in a mode that cannot be drawn: `tiltmaze doctor` says which")
            }
            return .framebuffer(path: fb.devicePath, reason: "console")
        }
    }
}

extension DisplayRequest.Choice {
    /// " · fb0 (console)", " · terminal (not a console)": what follows the
    /// sensor's name on the status line when the display was chosen for the player.
    public var label: String {
        switch self {
        case .terminal(let reason?): Self.labelSeparator + "terminal (\(reason))"
        case .kms(let path?, let reason?): Self.labelSeparator + "\(path.split(separator: "/").last.map(String.init) ?? path) KMS (\(reason))"
        case .framebuffer(let path, let reason?): Self.labelSeparator + "\(path.split(separator: "/").last.map(String.init) ?? path) (\(reason))"
        case .terminal(nil), .kms(_, nil), .kms(nil, _), .framebuffer(_, nil): ""
        }
    }

    /// What stands between the sensor's name and the screen's in the label (the status line's own).
    public static let labelSeparator = StatusLineText.labelSeparator
}
