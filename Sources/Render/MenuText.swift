// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// What a menu box says, whatever draws it (terminal cells or the
/// framebuffer's font): its headline, each item's label, and how many
/// characters wide its widest line is (an item has a marker and a space
/// before its label).
enum MenuText {
    /// "PAUSED", "Escaped in 12.34 s - new best!", "Game over - score 40", "Levels", into `w`.
    static func headline(_ state: MenuState, snapshot: WorldSnapshot, banner: LevelBanner, into w: inout ByteWriter) {
        switch state.menu {
        case .paused:
            w.append("PAUSED")
        case .won:
            w.append("Escaped in ")
            w.appendSeconds(snapshot.elapsed, decimals: 2)
            w.append(" s")
            if banner.newBest {
                w.append(" - new best!")
            } else if let best = banner.best {
                w.append(" (best ")
                w.appendSeconds(best, decimals: 2)
                w.append(" s)")
            }
        case .lost:
            w.append("Game over - score ")
            w.appendDecimal(snapshot.score)
        case .levels:
            w.append("Levels")
        case .settings:
            w.append("Settings: left/right change")
        }
    }

    /// The label of `item`: fixed text, or a campaign level's or a
    /// setting's line (the banner's, made into `TextList`s).
    static func label(_ item: GameMenu.Item, labels: MenuLabels) -> UnsafeBufferPointer<UInt8> {
        if case .level(let n) = item, n < labels.levels.count { return labels.levels[n] }
        if case .setting(let n) = item, n < labels.settings.count { return labels.settings[n] }
        let text = item.label
        return UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// The widest line of the box, in characters, for a headline of `headlineCount`.
    static func widest(_ state: MenuState, headlineCount: Int, labels: MenuLabels) -> Int {
        var widest = headlineCount
        for item in state.items { widest = max(widest, label(item, labels: labels).count + 2) }
        return widest
    }
}

/// The menu lines a banner brings: the campaign's levels and the feel's
/// settings, made into bytes once when the banner changes.
struct MenuLabels {
    let levels: TextList
    let settings: TextList

    init(_ banner: LevelBanner) {
        levels = TextList(banner.levelLabels)
        settings = TextList(banner.settingLabels)
    }
}
