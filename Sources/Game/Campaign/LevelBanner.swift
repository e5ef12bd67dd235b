// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What the screens show beside the world: the level's name (with its
/// place in the campaign), the best time, whether the last win set it, the
/// campaign's levels for the level menu, the feel's settings for their
/// menu, and how the player is drawn. Changes only when a level starts or
/// is won, or a setting changes: displays may allocate to take it.
public struct LevelBanner: Sendable, Equatable {
    public var title: String
    public var best: Double?
    /// The last win beat the best time before it (or was the first).
    public var newBest: Bool
    /// One line per campaign level for the level menu (name, best time or "locked").
    public var levelLabels: [String]
    /// The Settings menu's lines (`TiltFeel.settingLabels`).
    public var settingLabels: [String]
    public var player: PlayerStyle

    public init(title: String, best: Double? = nil, newBest: Bool = false, levelLabels: [String] = [],
                player: PlayerStyle = .pacman, settingLabels: [String] = TiltFeel.standard.settingLabels) {
        self.settingLabels = settingLabels
        self.player = player
        self.title = title
        self.best = best
        self.newBest = newBest
        self.levelLabels = levelLabels
    }
}
