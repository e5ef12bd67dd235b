// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Controls
import Game
import Realtime
import SystemCalls
import Fbdev

/// The game on the Sense HAT's 8×8 LED matrix ("RPi-Sense FB"): the ball's
/// neighbourhood (`SenseHatView`), alone or beside another display. It has
/// no keyboard: the Sense HAT joystick reaches the game as a gamepad
/// (`PadControls`), and alone the game is ended by a signal (Ctrl-C, SIGTERM).
/// The matrix is dark again when the game ends.
public final class SenseHatDisplay: Display, KeyInput {
    public let device: FramebufferDevice
    private(set) var level: Level?
    private let picture = Canvas(width: SenseHatView.size, height: SenseHatView.size)
    private let shown = Canvas(width: SenseHatView.size, height: SenseHatView.size)
    private var restored = false

    /// The name sysfs gives the matrix's framebuffer.
    public static let framebufferName = "RPi-Sense FB"

    /// Opens the matrix at `path`; fails, naming it, when it is not 8×8.
    /// Alone (`takesSignals`), it ends the game on SIGINT, SIGTERM or SIGHUP;
    /// beside a terminal, the terminal does.
    public init(level: Level?, path: String, takesSignals: Bool = true) throws(DisplayError) {
        device = try FramebufferDevice(path: path)
        guard device.layout.width == SenseHatView.size, device.layout.height == SenseHatView.size else {
            throw .device(path: path, operation: "use it as the Sense HAT's LED matrix", errno: 22,
                          advice: "it is \(device.layout.width)×\(device.layout.height), not 8×8: name the matrix's node (`tiltmaze doctor` lists it)")
        }
        self.level = level
        self.takesSignals = takesSignals
        if takesSignals { StopSignals.install() }
    }

    deinit { restore() }

    public var refreshPeriod: Int64? { nil }
    let takesSignals: Bool
    public var quitRequested: Bool { takesSignals && StopSignals.isRequested }

    /// No keyboard: sleeps to the deadline.
    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        MonotonicClock.sleep(until: deadline)
    }

    public func setNotice(_ text: String?) {}

    public func load(_ level: Level, banner: LevelBanner) { self.level = level }

    public func setBanner(_ banner: LevelBanner) {}
    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) {}

    public func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        guard let level else { preconditionFailure("a panel-only display cannot draw the maze") }
        SenseHatView.paint(snapshot, level: level, into: picture)
        return show()
    }

    public func drawPanel(_ panel: Panel) -> DrawnFrame {
        SenseHatView.paint(panel, into: picture)
        return show()
    }

    private func show() -> DrawnFrame {
        var changed = false
        for y in 0 ..< SenseHatView.size { for x in 0 ..< SenseHatView.size where picture[x, y] != shown[x, y] { changed = true } }
        guard changed else { return DrawnFrame(bytes: 0) }
        shown.copy(from: picture)
        return DrawnFrame(bytes: device.surface.copyAll(from: picture))
    }

    /// Turns every LED off.
    public func restore() {
        guard !restored else { return }
        restored = true
        picture.fill(RGB(0, 0, 0))
        device.surface.copyAll(from: picture)
    }
}

/// Several displays at once (`--display fb,sensehat`): the first gives the
/// keyboard and paces nothing on its own; every one draws every frame.
public final class DisplayGroup: Display, KeyInput {
    public let displays: [any DisplayBackEnd]

    public init(_ displays: [any DisplayBackEnd]) {
        precondition(!displays.isEmpty, "a group of no displays")
        self.displays = displays
    }

    public var refreshPeriod: Int64? { displays[0].refreshPeriod }
    public var quitRequested: Bool { displays.contains { $0.quitRequested } }
    public var suspendRequested: Bool { displays.contains { $0.suspendRequested } }

    /// The first (the one with the keyboard) suspends the program; the
    /// others have nothing to give back.
    public func suspendUntilContinued() { displays[0].suspendUntilContinued() }

    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        displays[0].waitForInput(until: deadline, handle)
    }

    public func setNotice(_ text: String?) { for d in displays { d.setNotice(text) } }
    public func load(_ level: Level, banner: LevelBanner) throws { for d in displays { try d.load(level, banner: banner) } }
    public func setBanner(_ banner: LevelBanner) { for d in displays { d.setBanner(banner) } }
    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) { for d in displays { d.setStatistics(text) } }
    /// A terminal in the group too small for the maze pauses the game as it would alone.
    public var showsWholeMaze: Bool { displays.allSatisfy { $0.showsWholeMaze } }

    public func drawPanel(_ panel: Panel) -> DrawnFrame {
        var total = DrawnFrame(bytes: 0, pieces: 0)
        for d in displays {
            let drawn = d.drawPanel(panel)
            total.bytes += drawn.bytes
            total.pieces += drawn.pieces
        }
        return total
    }

    public func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        var bytes = 0, pieces = 0
        for d in displays {
            let drawn = d.draw(snapshot, menu: menu)
            bytes += drawn.bytes
            pieces += drawn.pieces
        }
        return DrawnFrame(bytes: bytes, pieces: pieces)
    }

    /// Restores them in reverse order: the first (the terminal's keyboard) last.
    public func restore() { for d in displays.reversed() { d.restore() } }
}
