// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// A screen that is not the maze: the calibration screen and ColorTilt. One
/// description that every back end draws — the terminal in cells, the
/// framebuffer in pixels, the Sense HAT on its 8×8 LEDs — so they show the
/// same thing.
///
/// Layout, in every back end: the title on top, a square arena (the test
/// square rolling in it, or a colour filling it), the information lines and
/// the items to choose from beside or under it, the key hints at the bottom.
public struct Panel: Sendable, Equatable {
    public var title: String
    /// What the screen says: the neutral, the sensors, what to do.
    public var lines: [String]
    /// Choices, chosen with the arrows and Enter (or a pad, or the joystick); may be empty.
    public var items: [String]
    public var selected: Int
    public var arena: RGB
    /// The test square: centre and side in arena sides (0…1, y down).
    public var square: Square?
    public var hints: String
    /// A passing message ("saved …"), shown highlighted.
    public var notice: String?

    public struct Square: Sendable, Equatable {
        public var x: Double, y: Double, size: Double
        public var color: RGB
        public init(x: Double, y: Double, size: Double, color: RGB) {
            self.x = x; self.y = y; self.size = size; self.color = color
        }
    }

    public init(title: String, lines: [String] = [], items: [String] = [], selected: Int = 0, arena: RGB,
                square: Square? = nil, hints: String, notice: String? = nil) {
        self.title = title
        self.lines = lines
        self.items = items
        self.selected = selected
        self.arena = arena
        self.square = square
        self.hints = hints
        self.notice = notice
    }

    /// The menu row chosen once `input` has moved it from `selected` among
    /// `count` rows (up and down wrap round), or nil when `input` is no move.
    public static func menuMove(_ input: GameInput, from selected: Int, count: Int) -> Int? {
        switch input {
        case .up: (selected + count - 1) % count
        case .down: (selected + 1) % count
        default: nil
        }
    }

    /// `line` in lines of at most `width` characters, for a text column
    /// narrower than the line (a long sensor name in a small terminal): it
    /// breaks at the last space that fits, and the lines after the first are
    /// indented by two; a word longer than the column is split.
    public static func wrapped(_ line: String, width: Int) -> [String] {
        var rest = Array(line.unicodeScalars)
        guard width > 4, rest.count > width else { return [line] }
        var lines: [String] = []
        var indent = 0
        while indent + rest.count > width {
            let room = width - indent
            let cut = rest[..<(room + 1)].lastIndex(of: " ").flatMap { $0 > 0 ? $0 : nil } ?? room
            lines.append(String(repeating: " ", count: indent) + String(String.UnicodeScalarView(rest[..<cut])))
            rest = Array(rest[cut...].drop { $0 == " " })
            indent = 2
        }
        if !rest.isEmpty { lines.append(String(repeating: " ", count: indent) + String(String.UnicodeScalarView(rest))) }
        return lines
    }

    /// The arena's frame and the square's colours.
    public static let arenaFrame = RGB(88, 100, 140)
    public static let squareColor = RGB(255, 210, 60)
}
