// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Game
import MotionCore
import LibC

/// `tiltmaze calibrate`: the test square rolls with the tilt measured from
/// the neutral; Calibrate takes the way the board is held now as the
/// neutral, Zero returns to level, Correction turns it off and on, Done
/// ends (the command then saves). Keys, a pad and the Sense HAT joystick all work:
/// the arrows (D-pad, joystick) move the highlight, Enter (south, press)
/// chooses; c, z, o and q are shortcuts.
public final class CalibrateScreen: PanelScreen {
    public let loop: MotionModelLoop<CalibrationSquare>
    let sensorName: String
    let board: (any CommandedTilt)?
    public private(set) var selected = 0
    private var notice: (text: String, until: Int64)?
    private var waitingForChange: UInt64?
    private var lastChanges: UInt64 = 0

    public enum Item: CaseIterable, Sendable { case calibrate, zero, correction, done }
    static let items = Item.allCases

    public init(loop: MotionModelLoop<CalibrationSquare>, sensorName: String, board: (any CommandedTilt)?) {
        self.loop = loop
        self.sensorName = sensorName
        self.board = board
    }

    public static let hints = "arrows+Enter choose · c calibrate · z zero · o correction · q done"
    public static let simulatedHints = "WASD tilt · space level · c calibrate · z zero · o on/off · q done"

    public func handle(_ input: GameInput) -> Bool {
        if let moved = Panel.menuMove(input, from: selected, count: Self.items.count) {
            selected = moved
            return true
        }
        switch input {
        case .up, .down: break
        case .select: return choose(Self.items[selected])
        case .quit, .back, .cancel: return false
        case .level: board?.level()
        case .character(let c):
            switch c {
            case UInt8(ascii: "c"): return choose(.calibrate)
            case UInt8(ascii: "z"): return choose(.zero)
            case UInt8(ascii: "o"): return choose(.correction)
            case UInt8(ascii: "w"): board?.nudge(right: 0, up: 1)
            case UInt8(ascii: "s"): board?.nudge(right: 0, up: -1)
            case UInt8(ascii: "a"): board?.nudge(right: -1, up: 0)
            case UInt8(ascii: "d"): board?.nudge(right: 1, up: 0)
            default: break
            }
        case .left, .right, .pause, .restart, .screenshot: break
        }
        return true
    }

    private var correctionOn = true

    private func choose(_ item: Item) -> Bool {
        switch item {
        case .calibrate:
            loop.changeReference(.captureCurrent)
            loop.send(.centre)
        case .zero:
            loop.changeReference(.level)
            loop.send(.centre)
        case .correction:
            correctionOn.toggle()
            loop.changeReference(.correction(correctionOn))
        case .done:
            return false
        }
        waitingForChange = lastChanges
        return true
    }

    public func panel(_ square: CalibrationSquare.Snapshot, status: MotionStatus, now: Int64) -> Panel {
        lastChanges = status.referenceChanges
        correctionOn = status.calibration.reference.isEnabled
        if let asked = waitingForChange, status.referenceChanges > asked {
            waitingForChange = nil
            notice = ("Neutral now \(status.calibration.reference.shortSummary)", now + 3_000_000_000)
        }
        if let shown = notice, now >= shown.until { notice = nil }
        let reference = status.calibration.reference
        var lines = [
            "Hold the board as you like to play,",
            "then Calibrate: that becomes level.",
            "",
            "Neutral: \(reference.summary)",
            "Correction: \(reference.isEnabled ? "on" : "off (the neutral is kept)")",
            "Tilt from neutral: \(MotionSampleText.decimal(square.leanDegrees))°",
        ]
        if status.hasGyroscope {
            let b = status.calibration.gyroBias * (180 / .pi)
            lines.append("Gyro bias: \(MotionSampleText.decimal(b.x, digits: 2)) \(MotionSampleText.decimal(b.y, digits: 2)) \(MotionSampleText.decimal(b.z, digits: 2)) °/s")
        }
        lines.append("Sensor: \(sensorName)")
        let labels = Self.items.map { item -> String in
            switch item {
            case .calibrate: return "Calibrate       c"
            case .zero: return "Zero            z"
            case .correction: return reference.isEnabled ? "Correction off  o" : "Correction on   o"
            case .done: return "Done            q"
            }
        }
        return Panel(title: "TiltMaze · Calibrate", lines: lines, items: labels, selected: selected, arena: GamePalette.floor,
                     square: .init(x: square.x, y: square.y, size: square.size, color: Panel.squareColor),
                     hints: board == nil ? Self.hints : Self.simulatedHints, notice: notice?.text)
    }
}
