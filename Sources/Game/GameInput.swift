// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls

/// What the player asks for, whatever it came from: the keyboard, a
/// gamepad, or the Sense HAT joystick. Five of them (the arrows and
/// `select`) are enough to play: the menus reach the rest.
///
/// One mapping for every screen, told which screen it serves: the maze
/// (with its menus, whose meanings `GameFlow` gives) or a panel (the
/// calibration screen, ColorTilt), where letters are commands of their own.
public enum GameInput: Equatable, Sendable {
    case up, down, left, right
    /// Enter, a gamepad's south button (A / Cross), the joystick pressed in:
    /// opens the menu while playing, chooses in a menu.
    case select
    /// Closes the menu, resuming (B / Circle); on a panel, leaves it (also Start).
    case back
    /// Opens or closes the pause menu (p, Start / Options / +).
    case pause
    /// Restart the level at once (r, Select / Create / −).
    case restart
    /// Quit at once (q, Ctrl-C).
    case quit
    /// Esc: back out of the menu shown (the level list to the menu it came
    /// from, the pause menu to the game); with no menu, quit. On a panel,
    /// Esc is `back`.
    case cancel
    /// Level the simulated board (space; on a panel also Select / Create / −).
    case level
    /// Save a picture of the screen (F12).
    case screenshot
    /// On a panel, any other letter (lower case) or digit, as typed.
    case character(UInt8)

    /// Which screen the input is for.
    public enum Context: Sendable {
        /// The maze and its menus.
        case game
        /// A screen that is not the maze.
        case panel
    }

    /// The keyboard's meaning; nil for keys the screen does not use.
    public init?(key: Key, in context: Context = .game) {
        switch key {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .enter: self = .select
        case .space: self = .level
        case .escape: self = context == .game ? .cancel : .back
        case .interrupt: self = .quit
        case .suspend: return nil
        case .function(12) where context == .game: self = .screenshot
        case .function: return nil
        case .character(let c):
            let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c
            if lower == UInt8(ascii: "q") { self = .quit; return }
            guard context == .game else { self = .character(lower); return }
            switch lower {
            case UInt8(ascii: "p"): self = .pause
            case UInt8(ascii: "r"): self = .restart
            // WASD are the arrows for the left hand (the panels read the letters).
            case UInt8(ascii: "w"): self = .up
            case UInt8(ascii: "a"): self = .left
            case UInt8(ascii: "s"): self = .down
            case UInt8(ascii: "d"): self = .right
            default: return nil
            }
        }
    }

    /// A controller button's meaning.
    public init(button: PadButton, in context: Context = .game) {
        switch button {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .south: self = .select
        case .east: self = .back
        case .start: self = context == .game ? .pause : .back
        case .select: self = context == .game ? .restart : .level
        }
    }
}
