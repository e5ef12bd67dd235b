import Controls

/// What the player asks for, whatever it came from: the keyboard, a
/// gamepad, or the Sense HAT joystick. Five of them (the arrows and
/// `select`) are enough to play: the menus reach the rest.
public enum GameInput: Equatable, Sendable {
    case up, down, left, right
    /// Enter, a gamepad's south button (A / Cross), the joystick pressed in:
    /// opens the menu while playing, chooses in a menu.
    case select
    /// Closes the menu, resuming (B / Circle).
    case back
    /// Opens or closes the pause menu (p, Start / Options / +).
    case pause
    /// Restart the level at once (r, Select / Create / −).
    case restart
    /// Quit at once (q, Esc, Ctrl-C).
    case quit
    /// Level the simulated board (space).
    case level
    /// Save a picture of the screen (F12).
    case screenshot

    /// The keyboard's meaning; nil for keys the game does not use.
    public init?(key: Key) {
        switch key {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .enter: self = .select
        case .space: self = .level
        case .escape, .interrupt: self = .quit
        case .suspend: return nil
        case .function(12): self = .screenshot
        case .function: return nil
        case .character(let c):
            switch c {
            case UInt8(ascii: "p"), UInt8(ascii: "P"): self = .pause
            case UInt8(ascii: "r"), UInt8(ascii: "R"): self = .restart
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): self = .quit
            // WASD are the arrows for the left hand (the other screens read the letters).
            case UInt8(ascii: "w"), UInt8(ascii: "W"): self = .up
            case UInt8(ascii: "a"), UInt8(ascii: "A"): self = .left
            case UInt8(ascii: "s"), UInt8(ascii: "S"): self = .down
            case UInt8(ascii: "d"), UInt8(ascii: "D"): self = .right
            default: return nil
            }
        }
    }

    /// A controller button's meaning.
    public init(button: PadButton) {
        switch button {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .south: self = .select
        case .east: self = .back
        case .start: self = .pause
        case .select: self = .restart
        }
    }
}
