/// The boxes shown over the maze that the player chooses from with the
/// arrows (or a D-pad, or the Sense HAT joystick) and Enter (or a button):
/// the game is playable with five keys and no keyboard.
public enum GameMenu: Sendable, Equatable {
    /// Resume, Restart, Calibrate here, Quit.
    case paused
    /// After reaching the exit: Play again, Quit.
    case won

    public enum Item: Sendable, Equatable {
        case resume, restart, calibrateHere, playAgain, quit
    }

    public var items: [Item] {
        switch self {
        case .paused: return Self.pausedItems
        case .won: return Self.wonItems
        }
    }

    // Static, so drawing a menu every frame allocates nothing.
    private static let pausedItems: [Item] = [.resume, .restart, .calibrateHere, .quit]
    private static let wonItems: [Item] = [.playAgain, .quit]
}

extension GameMenu.Item {
    /// The label and the key that chooses it directly.
    public var label: StaticString {
        switch self {
        case .resume: return "Resume       p"
        case .restart: return "Restart      r"
        case .calibrateHere: return "Calibrate here"
        case .playAgain: return "Play again   r"
        case .quit: return "Quit         q"
        }
    }
}

/// Which menu is open and which item is highlighted.
public struct MenuState: Sendable, Equatable {
    public var menu: GameMenu
    public var selected: Int

    public init(_ menu: GameMenu, selected: Int = 0) {
        self.menu = menu
        self.selected = selected
    }

    public var selectedItem: GameMenu.Item { menu.items[selected] }

    /// Moves the highlight by `step`, wrapping round.
    public mutating func move(_ step: Int) {
        let n = menu.items.count
        selected = ((selected + step) % n + n) % n
    }
}
