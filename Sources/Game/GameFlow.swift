// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The menus and what inputs do, apart from the threads and the display
/// so it can be tested by itself. The frame loop feeds it inputs and the
/// world's status and carries out the effects.
public struct GameFlow: Sendable {
    public enum Effect: Equatable, Sendable {
        /// Tilt the simulated board a step (ignored by real sensors).
        case nudge(right: Int, up: Int)
        case level
        /// A new game of the level: every life and pellet back.
        case restart
        case quit
        /// Save a picture of what is shown now.
        case screenshot
        /// Take the way the board is held now as the player's neutral tilt.
        case calibrateHere
        /// Play campaign level n (0-based).
        case playLevel(Int)
        /// Nothing happens, and the player is told why (a locked level chosen).
        case refused(String)
        /// The player changed the feel in the Settings menu: roll by this from now on.
        case changeFeel(TiltFeel)
    }

    /// Where the player is in a campaign: the level played, how many levels
    /// there are, how many are open to choose (the first ones).
    public struct Campaign: Sendable, Equatable {
        public var current: Int
        public var count: Int
        public var unlocked: Int

        public init(current: Int, count: Int, unlocked: Int) {
            self.current = current
            self.count = count
            self.unlocked = unlocked
        }
    }

    /// The campaign being played, nil for a single level; the frame loop
    /// keeps it up to date as levels are won and chosen.
    public var campaign: Campaign? {
        didSet {
            if campaign?.count != oldValue?.count {
                levelItems = (0 ..< (campaign?.count ?? 0)).map { GameMenu.Item.level($0) } + [.back]
            }
        }
    }
    /// The level menu's items, made when the campaign is set, not when shown.
    private var levelItems: [GameMenu.Item] = [.back]

    public init(campaign: Campaign? = nil) {
        self.campaign = campaign
        levelItems = (0 ..< (campaign?.count ?? 0)).map { GameMenu.Item.level($0) } + [.back]
    }

    /// The menu shown, if any.
    public private(set) var menu: MenuState?
    /// The menu the level list returns to (Back): the pause menu, or the win or game-over one.
    private var levelsReturn: MenuState?
    /// The pause menu as it was when Settings opened, for Back.
    private var settingsReturn: MenuState?
    /// The player's feel, which the Settings menu changes; the session sets it at the start.
    public var feel = TiltFeel.standard
    /// A restart was asked for and the world may still say "won" or "lost"
    /// until the physics thread's next tick: their menus must not open again meanwhile.
    private var restartPending = false
    private var lastStatus: GameStatus = .playing

    /// Whether the physics should stand still: the pause menu, or the level
    /// list opened from it, is open.
    public var wantsPause: Bool {
        menu?.menu == .paused || menu?.menu == .settings || (menu?.menu == .levels && levelsReturn?.menu == .paused)
    }

    /// Opens the win menu when the ball reaches the exit and the game-over
    /// menu when the last life goes; closes them when a new game has begun.
    public mutating func update(status: GameStatus) {
        if restartPending {
            guard status != .won && status != .lost else { return }
            restartPending = false
        }
        defer { lastStatus = status }
        guard status != lastStatus else { return }
        switch status {
        case .won:
            menu = MenuState(.won, items: wonItems)
        case .lost:
            menu = MenuState(.lost, items: campaign == nil ? GameMenu.lostItems : GameMenu.lostInCampaign)
        case .playing, .paused:
            if menu?.menu == .won || menu?.menu == .lost || (menu?.menu == .levels && levelsReturn?.menu != .paused) {
                menu = nil
            }
        }
    }

    private var wonItems: [GameMenu.Item] {
        guard let campaign else { return GameMenu.wonItems }
        return campaign.current + 1 < campaign.count ? GameMenu.wonInCampaign : GameMenu.wonLastLevel
    }

    /// What `input` does now; the menu state changes as a side effect.
    public mutating func handle(_ input: GameInput) -> Effect? {
        switch input {
        case .quit:
            return .quit
        case .restart:
            return restart()
        case .screenshot:
            return .screenshot
        default:
            break
        }
        guard var open = menu else {
            switch input {
            case .cancel: return .quit
            case .up: return .nudge(right: 0, up: 1)
            case .down: return .nudge(right: 0, up: -1)
            case .left: return .nudge(right: -1, up: 0)
            case .right: return .nudge(right: 1, up: 0)
            case .level: return .level
            case .pause, .select: menu = MenuState(.paused, items: campaign == nil ? GameMenu.pausedItems : GameMenu.pausedInCampaign)
            case .back, .restart, .quit, .screenshot, .character: break
            }
            return nil
        }
        if open.menu == .settings, case .setting(let n) = open.selectedItem, let setting = TiltFeel.Setting(rawValue: n) {
            // Left and right change the value here, Enter moves it on (a toggle turns over).
            switch input {
            case .left: return change(setting, by: -1)
            case .right, .select: return change(setting, by: 1)
            default: break
            }
        }
        switch input {
        case .up, .left:
            open.move(-1)
            menu = open
        case .down, .right:
            open.move(1)
            menu = open
        case .select:
            return choose(open.selectedItem)
        case .pause, .back, .cancel:
            if open.menu == .paused { menu = nil }
            if open.menu == .levels { menu = levelsReturn }
            if open.menu == .settings { menu = settingsReturn }
        case .level:
            // The keyboard's board keeps its tilt across a menu: levelled here, the level
            // chosen next starts still instead of rolling at once the way the last one was won.
            return .level
        case .restart, .quit, .screenshot, .character:
            break
        }
        return nil
    }

    private mutating func restart() -> Effect {
        menu = nil
        restartPending = true
        return .restart
    }

    private mutating func choose(_ item: GameMenu.Item) -> Effect? {
        switch item {
        case .resume:
            menu = nil
            return nil
        case .restart, .playAgain, .retry:
            return restart()
        case .calibrateHere:
            menu = nil
            return .calibrateHere
        case .quit:
            return .quit
        case .levels:
            levelsReturn = menu
            let current = campaign?.current ?? 0
            menu = MenuState(.levels, items: levelItems, selected: min(current, levelItems.count - 1))
            return nil
        case .settings:
            settingsReturn = menu
            menu = MenuState(.settings, items: GameMenu.settingsItems)
            return nil
        case .setting(let n):
            return TiltFeel.Setting(rawValue: n).flatMap { change($0, by: 1) }
        case .back:
            menu = menu?.menu == .settings ? settingsReturn : levelsReturn
            return nil
        case .nextLevel:
            guard let campaign, campaign.current + 1 < campaign.count else { return nil }
            return play(campaign.current + 1)
        case .level(let n):
            // A locked level stays in the list, marked, and says what opens it.
            guard let campaign, n < campaign.unlocked else {
                return .refused("level \(n + 1) is locked: each level opens when the one before it is won (level \(campaign?.unlocked ?? n) is next)")
            }
            return play(n)
        }
    }

    private mutating func change(_ setting: TiltFeel.Setting, by step: Int) -> Effect? {
        let changed = feel.adjusted(setting, by: step)
        guard changed != feel else { return nil }
        feel = changed
        return .changeFeel(changed)
    }

    private mutating func play(_ level: Int) -> Effect {
        menu = nil
        levelsReturn = nil
        campaign?.current = level
        // The new level's world starts playing; what the old one said no longer counts.
        lastStatus = .playing
        restartPending = false
        return .playLevel(level)
    }
}
