// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A button on a controller the player holds (a gamepad's D-pad and face
/// buttons, the Sense HAT joystick), named by where it is, not by what the
/// game makes of it: that mapping is the game's (`GameInput`).
///
/// The device side turns a driver's codes into these (BTN_SOUTH, a D-pad
/// hat, the Sense HAT's KEY_ENTER or BTN_SELECT for its press…), so the
/// game never sees an evdev code.
public enum PadButton: Equatable, Sendable {
    /// The D-pad, or the joystick pushed that way.
    case up, down, left, right
    /// The lower face button (A, Cross); the joystick pressed in.
    case south
    /// The right face button (B, Circle).
    case east
    /// Start, Options, +, or the home button.
    case start
    /// Select, Create, −.
    case select
}

/// Something that reports controller presses when asked, without blocking:
/// the frame loop asks once a frame.
public protocol PadSource: AnyObject {
    /// Hands every press since the last call to `handle`, in order.
    func poll(_ handle: (PadButton) -> Void)
}
