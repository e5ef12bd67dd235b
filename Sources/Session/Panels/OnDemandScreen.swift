// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore
import MotionDevices
import Render

/// `tiltmaze calibrate --gyroscope`, `--accelerometer` or `--orientation`:
/// the screen says what to hold, fills in what has been held (the stillness
/// measured, the six faces, the two poses), and once that is all, shows the
/// result; Save keeps it (the command writes it), Again starts over, Quit
/// leaves keeping nothing. A refusal (the board moved, a fit out of
/// bounds) is shown with what to do. In the arena, the square shows where
/// "up" points, seen from above (accelerometer, orientation), or grows as
/// the stillness is measured (gyroscope); it turns green while the board is still.
/// On the simulated board the arrows tilt it (as in the game) and space
/// levels it, so its poses can be held at all; the letters choose.
public final class OnDemandScreen: PanelScreen {
    public let loop: MotionModelLoop<OnDemandCalibrationModel>
    public let kind: OnDemandCalibration
    let sensorName: String
    /// The board the arrows tilt (the simulated one), or nil: then they move the highlight.
    let board: (any CommandedTilt)?
    /// How the source delivers its samples: known once it has started.
    let delivery: () -> OnDemandCalibration.Delivery
    public private(set) var selected = 0
    /// What the player chose to save, if they did.
    public private(set) var chosen: OnDemandCalibration.Outcome?
    /// How the samples were delivered, as of the last frame (the source
    /// forgets once stopped): what saving turns the result by.
    public private(set) var delivered = OnDemandCalibration.Delivery(mount: .identity)
    private var notice: (text: String, until: Int64)?
    /// The outcome of the stretches found, worked out once per new stretch (the fits allocate).
    private var judged: (found: Int, ongoingStart: Int64, result: Result<OnDemandCalibration.Outcome, CalibrationRefusal>?)?
    private var progress: CalibrationProgress?

    public static let hints = KeepMenu.hints
    public static let simulatedHints = "arrows tilt · space level · s save · a again · q quit"

    public init(loop: MotionModelLoop<OnDemandCalibrationModel>, kind: OnDemandCalibration, sensorName: String,
                board: (any CommandedTilt)? = nil, delivery: @escaping () -> OnDemandCalibration.Delivery) {
        self.loop = loop
        self.kind = kind
        self.sensorName = sensorName
        self.board = board
        self.delivery = delivery
    }

    public func handle(_ input: GameInput) -> Bool {
        if let board {
            // The simulated board has no hands but these: the arrows tip it.
            switch input {
            case .up: board.nudge(right: 0, up: 1); return true
            case .down: board.nudge(right: 0, up: -1); return true
            case .left: board.nudge(right: -1, up: 0); return true
            case .right: board.nudge(right: 1, up: 0); return true
            case .level: board.level(); return true
            default: break
            }
        }
        return switch KeepMenu.asked(input, selected: &selected) {
        case .choose(let item): choose(item)
        case .leave: false
        case .nothing: true
        }
    }

    private func choose(_ item: KeepMenu) -> Bool {
        switch item {
        case .save:
            if kind.impossible(with: delivered) != nil {
                notice = ("Nothing to save: this accelerometer cannot be calibrated", 0)
                return true
            }
            guard case .success(let outcome)? = judged?.result else {
                let missing = progress.map { p in p.facesMissing.map(p.name(of:)) } ?? []
                notice = (kind == .accelerometer && !missing.isEmpty ? "Not yet: still to hold " + missing.joined(separator: ", ")
                          : "Not yet: " + (progress?.prompt ?? "hold the board as the screen says"), 0)
                return true
            }
            chosen = outcome
            return false
        case .again:
            loop.send(.restart)
            judged = nil
            return true
        case .quit:
            return false
        }
    }

    public func panel(_ s: OnDemandCalibrationModel.Snapshot, status: MotionStatus, now: Int64) -> Panel {
        delivered = delivery()
        let progress = CalibrationProgress(kind, delivery: delivered, stretches: s.finished, ongoing: s.isStill ? s.ongoing : nil)
        self.progress = progress
        // Judged when complete, again whenever a stretch ends (and, for the
        // gyroscope, once its stillness is long enough).
        // Judged again whenever a stretch ends or another begins (a frame
        // drawn before the model took Again shows the old ones: the next one
        // is judged anew), and forgotten while incomplete.
        if progress.isComplete {
            let key = (found: s.found, ongoingStart: s.isStill ? s.ongoing.start : 0)
            if judged == nil || judged!.found != key.found || judged!.ongoingStart != key.ongoingStart {
                judged = (key.found, key.ongoingStart, progress.outcome)
            }
        } else {
            judged = nil
        }
        if let shown = notice, shown.until == 0 { notice = (shown.text, now + 3_000_000_000) }
        if let shown = notice, now >= shown.until { notice = nil }
        // No poses make up for a sensor this calibration cannot hold for: say so instead of what to hold.
        let impossible = kind.impossible(with: delivered)
        var lines = impossible.map { Panel.wrapped("Nothing to calibrate: \($0).", width: 38) + ["", "Quit (q) leaves it as it is."] }
            ?? instructions(progress, s)
        lines.append("")
        switch judged?.result {
        case .success(let outcome)?: lines += Self.describe(outcome)
        case .failure(let refusal)?: lines += Panel.wrapped("Refused: \(refusal)", width: 38)
        case nil where impossible != nil: break
        case nil where kind == .accelerometer:
            // The ticks say which faces are left; the prompt's list would say it again.
            lines.append(s.isStill ? "Now: still, keep it there" : "Now: moving; rest it on the next face")
        case nil: lines += Panel.wrapped("Now: " + progress.prompt, width: 38)
        }
        lines.append("Sensor: \(sensorName)")
        let labels = KeepMenu.labels
        let title = "TiltMaze · " + ["gyroscope": "Gyroscope", "accelerometer": "Accelerometer", "orientation": "Board axes"][kind.rawValue]!
        return Panel(title: title, lines: lines, items: labels, selected: selected, arena: GamePalette.floor,
                     square: marker(s, progress), hints: board == nil ? Self.hints : Self.simulatedHints, notice: notice?.text)
    }

    /// What to hold, and how far it has come.
    private func instructions(_ p: CalibrationProgress, _ s: OnDemandCalibrationModel.Snapshot) -> [String] {
        switch kind {
        case .gyroscope:
            let needed = GyroscopeCalibration.measuringTime
            let still = s.isStill ? min(s.ongoing.duration, needed) : (p.isComplete ? needed : 0)
            let filled = Int((still / needed * 20).rounded(.down))
            return ["Put the board down on something firm",
                    "and keep it still for \(Int(needed)) seconds.",
                    "",
                    "Still [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 20 - filled))] "
                        + MotionSampleText.decimal(still) + " s"]
        case .accelerometer:
            let held = Set(p.facesHeld)
            let faces = AccelerometerFit.Face.allCases.map { face in
                (held.contains(face) ? "[x] " : "[ ] ") + p.name(of: face)
            }
            var lines = ["Rest the board still on each face in",
                         "turn, 2 s each, until all are ticked.",
                         ""]
            for i in stride(from: 0, to: faces.count, by: 2) {
                lines.append(faces[i].padding(19) + faces[i + 1])
            }
            return lines
        case .orientation:
            let poses = p.poses
            return ["Lay the board flat, face up, and hold",
                    "it still; then tip the right edge",
                    "down about 30° and hold it still.",
                    "",
                    (poses >= 1 ? "[x]" : "[ ]") + " flat, face up",
                    (p.hasBothPoses ? "[x]" : "[ ]") + " right edge down",
                    s.isStill ? "Still: keep it there" : "Moving"]
        }
    }

    /// The result's lines, 38 characters at most.
    static func describe(_ outcome: OnDemandCalibration.Outcome) -> [String] {
        func f(_ v: Double, _ digits: Int) -> String { MotionSampleText.decimal(v, digits: digits) }
        switch outcome {
        case .gyroscope(let g):
            return ["Bias  \(f(g.bias.x, 4)) \(f(g.bias.y, 4)) \(f(g.bias.z, 4)) rad/s",
                    "      ± \(f(g.uncertainty, 5)) rad/s over \(f(g.duration, 1)) s",
                    "Save keeps it for this sensor."]
        case .accelerometer(let a):
            let b = a.calibration.bias, scale = a.calibration.scale
            return ["Bias  \(f(b.x, 3)) \(f(b.y, 3)) \(f(b.z, 3)) m/s²",
                    "Scale \(f(scale.x, 4)) \(f(scale.y, 4)) \(f(scale.z, 4))",
                    "Residual \(f(a.residual, 3)) m/s² over \(a.poses) poses",
                    "Save keeps it for this sensor."]
        case .orientation(let m):
            return ["Axes  " + m.propertyText,
                    "Save keeps them for you, instead of",
                    "udev's or the driver's mount matrix."]
        }
    }

    /// The arena's square: "up" seen from above, or the stillness growing.
    private func marker(_ s: OnDemandCalibrationModel.Snapshot, _ p: CalibrationProgress) -> Panel.Square? {
        let color = s.isStill ? RGB(80, 220, 110) : Panel.squareColor
        switch kind {
        case .gyroscope:
            let still = s.isStill ? min(s.ongoing.duration / GyroscopeCalibration.measuringTime, 1) : (p.isComplete ? 1 : 0)
            return Panel.Square(x: 0.5, y: 0.5, size: 0.12 + 0.6 * still, color: color)
        case .accelerometer, .orientation:
            let a = s.acceleration
            guard a.length > 0 else { return nil }
            let up = a / a.length
            return Panel.Square(x: 0.5 + 0.42 * up.x, y: 0.5 - 0.42 * up.y, size: 0.12,
                                color: up.z >= 0 ? color : RGB(color.r / 2, color.g / 2, color.b / 2))
        }
    }
}

extension String {
    /// Padded with spaces to `width` characters.
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
