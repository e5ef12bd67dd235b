// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import Render

/// The choices of a screen that ends in something to keep (the compass's
/// fit, a calibration on demand): Save, Again, Quit, with the arrows and
/// Enter or their letters, a pad or the joystick.
enum KeepMenu: CaseIterable {
    case save, again, quit

    static let labels = ["Save            s", "Again           a", "Quit            q"]
    static let hints = "arrows+Enter choose · s save · a again · q quit"

    /// What `input` asks for: a choice, leaving, or nothing (the highlight
    /// in `selected` may have moved).
    enum Asked { case choose(KeepMenu), leave, nothing }

    static func asked(_ input: GameInput, selected: inout Int) -> Asked {
        if let moved = Panel.menuMove(input, from: selected, count: allCases.count) {
            selected = moved
            return .nothing
        }
        switch input {
        case .select: return .choose(allCases[selected])
        case .quit, .back, .cancel: return .leave
        case .character(UInt8(ascii: "s")): return .choose(.save)
        case .character(UInt8(ascii: "a")): return .choose(.again)
        case .up, .down, .character, .left, .right, .pause, .restart, .screenshot, .level: return .nothing
        }
    }
}
