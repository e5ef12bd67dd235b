// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The boxes shown over the maze that the player chooses from with the
/// arrows (or a D-pad, or the Sense HAT joystick) and Enter (or a button):
/// the game is playable with five keys and no keyboard, so every box has
/// its way out among its items.
public enum GameMenu: Sendable, Equatable {
    /// Resume, Restart, (Levels), Calibrate here, Settings, Quit.
    case paused
    /// After reaching the exit: (Next level), Play again, (Levels), Quit.
    case won
    /// After the last life: Retry, (Levels), Quit.
    case lost
    /// The campaign's levels, then Back.
    case levels
    /// The player's feel: sensitivity, dead zone, smoothing, the axes turned round; then Back.
    case settings

    public enum Item: Sendable, Equatable {
        case resume, restart, levels, calibrateHere, settings, nextLevel, playAgain, retry, quit, back
        /// Campaign level n (0-based).
        case level(Int)
        /// One of the feel's settings (`TiltFeel.Setting`, by its raw value).
        case setting(Int)
    }

    /// The items of a menu outside a campaign (one level, a random maze).
    public var items: [Item] {
        switch self {
        case .paused: return Self.pausedItems
        case .won: return Self.wonItems
        case .lost: return Self.lostItems
        case .levels: return Self.backItems
        case .settings: return Self.settingsItems
        }
    }

    // Static, so opening a menu or drawing it every frame allocates nothing.
    static let pausedItems: [Item] = [.resume, .restart, .calibrateHere, .settings, .quit]
    static let pausedInCampaign: [Item] = [.resume, .restart, .levels, .calibrateHere, .settings, .quit]
    static let wonItems: [Item] = [.playAgain, .quit]
    static let wonInCampaign: [Item] = [.nextLevel, .playAgain, .levels, .quit]
    static let wonLastLevel: [Item] = [.playAgain, .levels, .quit]
    static let lostItems: [Item] = [.retry, .quit]
    static let lostInCampaign: [Item] = [.retry, .levels, .quit]
    static let backItems: [Item] = [.back]
    static let settingsItems: [Item] = TiltFeel.Setting.allCases.map { .setting($0.rawValue) } + [.back]
}

extension GameMenu.Item {
    /// The label and the key that chooses it directly; a campaign level's
    /// label is its name, and a setting's its value, which the display has
    /// (`LevelBanner.levelLabels`, `.settingLabels`).
    public var label: StaticString {
        switch self {
        case .resume: return "Resume       p"
        case .restart: return "Restart      r"
        case .levels: return "Levels"
        case .calibrateHere: return "Calibrate here"
        case .settings: return "Settings"
        case .nextLevel: return "Next level"
        case .playAgain: return "Play again   r"
        case .retry: return "Retry        r"
        case .quit: return "Quit         q"
        case .back: return "Back"
        case .level: return "Level"
        case .setting: return "Setting"
        }
    }
}

/// Which menu is open, its items, and which is highlighted.
public struct MenuState: Sendable, Equatable {
    public var menu: GameMenu
    public var items: [GameMenu.Item]
    public var selected: Int

    public init(_ menu: GameMenu, items: [GameMenu.Item]? = nil, selected: Int = 0) {
        self.menu = menu
        self.items = items ?? menu.items
        self.selected = selected
    }

    public var selectedItem: GameMenu.Item { items[selected] }

    /// Moves the highlight by `step`, wrapping round.
    public mutating func move(_ step: Int) {
        let n = items.count
        selected = ((selected + step) % n + n) % n
    }
}
