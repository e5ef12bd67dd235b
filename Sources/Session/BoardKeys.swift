// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls
import Game
import MotionCore

/// What the keys do to the simulated board where no screen is drawn
/// (`monitor`, `record`): as in the game, the arrows (and WASD) tilt it a
/// step and space levels it; every other key is left alone.
public enum BoardKeys {
    public static let hint = "the arrows (or WASD) tilt it, space levels it"

    public static func apply(_ key: Key, to board: any CommandedTilt) {
        switch GameInput(key: key, in: .game) {
        case .up?: board.nudge(right: 0, up: 1)
        case .down?: board.nudge(right: 0, up: -1)
        case .left?: board.nudge(right: -1, up: 0)
        case .right?: board.nudge(right: 1, up: 0)
        case .level?: board.level()
        default: break
        }
    }
}
