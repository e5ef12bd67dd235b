// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore

/// The level the session's tests play.
enum Fixtures {
    /// A 20×10 maze: border walls, one inner wall, the start and the exit
    /// at the ends of the top corridor.
    static let level = try! LevelParser(file: "fixture").parse("""
        title: Test Maze
        maze:
        ####################
        #S                E#
        #                  #
        #                  #
        #         ##########
        #                  #
        #                  #
        #                  #
        #                  #
        ####################

        """)
}

/// Gravity in the board's frame for a board whose right edge is lowered by `angle`.
func gravity(right angle: Double = 0, up pitch: Double = 0) -> Vector3 {
    TiltBoard.gravity(roll: angle, pitch: pitch)
}
