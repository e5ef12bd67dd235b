// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// How the player is drawn (`play --player`): the tutorials' pacman, who
/// faces where he goes and chomps, or a ball that shows it rolls. The
/// physics is the same: the drawn size is its radius.
public enum PlayerStyle: String, Sendable, CaseIterable {
    case pacman
    case ball
}
