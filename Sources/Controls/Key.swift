// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A key press as the game sees it. WASD arrive as the arrows they stand
/// for; anything else printable arrives as its byte.
public enum Key: Equatable, Sendable {
    case up, down, left, right
    case space, enter, escape
    /// Ctrl-C: in raw mode it is a byte (3), not a signal.
    case interrupt
    /// Ctrl-Z: likewise a byte (26); the terminal session turns it into a suspension.
    case suspend
    case character(UInt8)
    /// A function key, F1…F12 (terminals send F5 and up as `ESC [ n ~`).
    case function(Int)
}
