// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Controls
import Game

/// A screen the game is drawn on: the output seam between the session and
/// a back end, as LVGL's `lv_display` (the keys are `KeyInput`, apart, as
/// its `lv_indev` is). The terminal is one (`TerminalDisplay`); the screens
/// of pixels (`PixelDisplay`) and the Sense HAT's matrix are others.
///
/// The session calls these on one thread, after each frame's wait for keys.
public protocol Display: AnyObject {
    /// How often the screen refreshes, in ns; nil lets the session pick (60 Hz).
    var refreshPeriod: Int64? { get }
    /// A line shown on the status line until replaced (nil removes it). The
    /// loop calls it only when the text changes: it may allocate.
    func setNotice(_ text: String?)
    /// Live figures shown on the status line (ASCII), nil for none; called a
    /// few times a second, without allocating.
    func setStatistics(_ text: UnsafeBufferPointer<UInt8>?)
    /// Draws `snapshot` with `menu` open over it; returns what reached the
    /// screen. Only for a display made with a level.
    @discardableResult
    func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame
    /// Starts showing `level` with `banner`: what the display made for the
    /// level before is made again (allocates: at a level's start only).
    /// Fails, keeping nothing of the old level, when the level cannot be shown (too large).
    func load(_ level: Level, banner: LevelBanner) throws
    /// What is shown beside the world changed (a win set a best). Allocates: on a change only.
    func setBanner(_ banner: LevelBanner)
    /// Draws a screen that is not the maze (calibration, ColorTilt).
    @discardableResult
    func drawPanel(_ panel: Panel) -> DrawnFrame
    /// Gives back what the display took (terminal modes, the console); safe to call more than once.
    func restore()
    /// Whether the maze is shown whole now; false while a terminal is too
    /// small for it, when the session pauses the game. Read every frame: it
    /// must not allocate.
    var showsWholeMaze: Bool { get }
}

extension Display {
    /// A screen of pixels refuses a level too large for it (`load` fails), and the Sense HAT shows its own view.
    public var showsWholeMaze: Bool { true }
}

/// Where the keys come from, and the program's job control: the input
/// seam between the session and a back end, kept apart from the output
/// (`Display`). The terminal's keys come with the terminal; a screen of
/// pixels on a console takes the console's keyboard; the Sense HAT's
/// matrix, its joystick.
///
/// The session calls these on one thread, each frame `waitForInput(until:)`
/// to the frame's deadline, then draws.
public protocol KeyInput: AnyObject {
    /// Set once the input asks the program to end: a quit signal, a hang-up.
    var quitRequested: Bool { get }
    /// Waits until the monotonic clock reads `deadline`, handing each key to
    /// `handle` as it arrives; returns sooner only once `quitRequested` is set.
    func waitForInput(until deadline: Int64, _ handle: (Key) -> Void)
    /// Ctrl-Z was typed or SIGTSTP arrived.
    var suspendRequested: Bool { get }
    /// Suspends the program as job control expects: gives back what the
    /// back end took (the screen, the console, the terminal), stops until
    /// `fg`, takes it all again; the next frame repaints everything.
    func suspendUntilContinued()
}

extension KeyInput {
    public var suspendRequested: Bool { false }
    public func suspendUntilContinued() {}
}

/// A back end that is both: each of ours draws and gives its keys (the
/// terminal, a console's screen of pixels, the Sense HAT with its joystick).
/// The session holds the two roles apart; a back end is made as one.
public typealias DisplayBackEnd = Display & KeyInput
