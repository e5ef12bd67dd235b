// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The rules a level is played by, apart from the board's feel.
public struct GameRules: Sendable, Equatable {
    /// Ghost touches a game survives, plus one: the last costs the game.
    public var lives = 3
    /// Seconds after a ghost touch during which no ghost can touch again, so
    /// a ghost patrolling through the start cannot take every life at once.
    public var graceTime = 2.0
    /// Score per pellet eaten.
    public var pelletPoints = 10
    /// Seconds the screen flashes red after a ghost touch.
    public var caughtFlashTime = 0.6

    public init() {}
}
