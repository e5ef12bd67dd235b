/// The menus and what inputs do, apart from the threads and the display
/// so it can be tested by itself. The frame loop feeds it inputs and the
/// world's status and carries out the effects.
public struct GameFlow: Sendable {
    public enum Effect: Equatable, Sendable {
        /// Tilt the simulated board a step (ignored by real sensors).
        case nudge(right: Int, up: Int)
        case level
        case restart
        case quit
        /// Save a picture of what is shown now.
        case screenshot
        /// Take the way the board is held now as the player's neutral tilt.
        case calibrateHere
    }

    public init() {}

    /// The menu shown, if any.
    public private(set) var menu: MenuState?
    /// A restart was asked for and the world may still say "won" until the
    /// physics thread's next tick: the win menu must not open again meanwhile.
    private var restartPending = false

    /// Whether the physics should stand still: the pause menu is open.
    public var wantsPause: Bool { menu?.menu == .paused }

    /// Opens the win menu when the ball reaches the exit, and closes it
    /// when a restart has taken effect.
    public mutating func update(status: GameStatus) {
        if restartPending {
            guard status != .won else { return }
            restartPending = false
        }
        if status == .won, menu?.menu != .won {
            menu = MenuState(.won)
        } else if status != .won, menu?.menu == .won {
            menu = nil
        }
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
            case .up: return .nudge(right: 0, up: 1)
            case .down: return .nudge(right: 0, up: -1)
            case .left: return .nudge(right: -1, up: 0)
            case .right: return .nudge(right: 1, up: 0)
            case .level: return .level
            case .pause, .select: menu = MenuState(.paused)
            case .back, .restart, .quit, .screenshot: break
            }
            return nil
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
        case .pause, .back:
            if open.menu == .paused { menu = nil }
        case .level, .restart, .quit, .screenshot:
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
        case .restart, .playAgain:
            return restart()
        case .calibrateHere:
            menu = nil
            return .calibrateHere
        case .quit:
            return .quit
        }
    }
}
