// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A source the player tilts with the arrow keys or a D-pad rather than by
/// holding a real board: the simulated board. The frame loop sends it the
/// player's nudges; a real sensor does not take them.
public protocol CommandedTilt: AnyObject, Sendable {
    /// Tilts one step further: `right` > 0 lowers the right edge, `up` > 0
    /// the top edge (so the ball rolls that way). Any thread.
    func nudge(right: Int, up: Int)
    /// Commands the board back to level. Any thread.
    func level()
}

/// A source that can be shaken on command: the simulated board, so
/// ColorTilt can be tried without hardware.
public protocol CommandedShake: AnyObject, Sendable {
    /// A short 2 g push along `direction` (`Shake.direction`: +x, −x, +y,
    /// −y, +z, −z), on top of the tilt. Any thread.
    func shake(direction: Int)
}
