// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices

/// The sensor side of a session: the chosen source, and the board the
/// player's keys tilt and shake when the source is the simulated one.
/// The session hands the keys to `board`; nothing below it asks a source
/// what it is.
public struct SensorFeed {
    public let source: any MotionSource
    /// Set for a board the player commands (the simulated one): the arrows tilt it.
    public let board: (any CommandedTilt)?
    /// Set for a board that shakes on command (the simulated one): ColorTilt's 1–6.
    public let shaker: (any CommandedShake)?

    public init(source: any MotionSource, board: (any CommandedTilt)? = nil, shaker: (any CommandedShake)? = nil) {
        self.source = source
        self.board = board
        self.shaker = shaker
    }

    /// The source `chosen` names, with the simulated board's controls when it is that board.
    public init(_ chosen: ChosenSource) {
        self.init(source: chosen.source, board: chosen.simulatedBoard, shaker: chosen.simulatedBoard)
    }
}
