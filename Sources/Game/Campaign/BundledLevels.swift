// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The level drawn and played when none is named outside the campaign
/// (`tiltmaze snapshot`, `LevelFile.load(nil)`): the campaign's First Roll,
/// compiled in with the rest (`levels/campaign/02-first-roll.txt`).
public enum BundledLevels {
    public static let defaultID = "02-first-roll"

    public static func defaultLevel() -> Level {
        guard let level = Campaign.levels.first(where: { $0.id == defaultID })?.level else {
            // Only a broken build can get here: CampaignTests checks the campaign's files.
            fatalError("the campaign has no level \(defaultID)")
        }
        return level
    }
}
