// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Game
import MotionCore

/// `tiltmaze calibrate --compass`: the player turns the board through a
/// figure of eight while the screen shows which of 26 directions (a cube's
/// faces, edges and corners, drawn as three layers) the field has been seen
/// from, the coverage, and the accuracy the fit reaches; in the arena, a
/// square follows the latest reading's direction, so the player sees the
/// readings come. Save keeps the
/// calibration (the command writes it), Again starts over, Quit leaves
/// without saving. Keys, a pad and the Sense HAT joystick all work.
public final class CompassScreen: PanelScreen {
    public let loop: MotionModelLoop<CompassCalibration>
    let sensorName: String
    let hasMagnetometer: Bool
    public private(set) var selected = 0
    /// The calibration the player chose to save, if they did.
    public private(set) var chosen: MagnetometerCalibration?
    private var latest = CompassCalibration.Snapshot()
    private var notice: (text: String, until: Int64)?

    public static let hints = KeepMenu.hints

    public init(loop: MotionModelLoop<CompassCalibration>, sensorName: String, hasMagnetometer: Bool) {
        self.loop = loop
        self.sensorName = sensorName
        self.hasMagnetometer = hasMagnetometer
    }

    public func handle(_ input: GameInput) -> Bool {
        switch KeepMenu.asked(input, selected: &selected) {
        case .choose(let item): choose(item)
        case .leave: false
        case .nothing: true
        }
    }

    /// Whether a fit is good enough to keep: CoreMotion's low or better.
    public static func savable(_ s: CompassCalibration.Snapshot) -> Bool { s.hasFit && s.accuracy >= .low }

    private func choose(_ item: KeepMenu) -> Bool {
        switch item {
        case .save:
            guard Self.savable(latest) else {
                notice = ("Not yet: keep turning until the accuracy reads low or better", 0)
                return true
            }
            chosen = latest.calibration
            return false
        case .again:
            loop.send(.restart)
            return true
        case .quit:
            return false
        }
    }

    /// The three layers of directions as text: below (z −1), level (z 0, the
    /// middle is the board itself) and above (z +1), each a 3×3 grid, `#` for
    /// covered and `.` for not yet.
    public static func layers(_ covered: UInt32) -> [String] {
        var index = 0
        var rows = ["", "", ""]
        // CompassCalibrator.directions runs x, then y, then z, from −1 to 1, skipping the centre.
        var cells = [[[Character]]](repeating: [[Character]](repeating: [" ", " ", " "], count: 3), count: 3)
        for x in 0 ..< 3 {
            for y in 0 ..< 3 {
                for z in 0 ..< 3 where x != 1 || y != 1 || z != 1 {
                    cells[z][2 - y][x] = covered & (1 << UInt32(index)) != 0 ? "#" : "."
                    index += 1
                }
            }
        }
        cells[1][1][1] = "o"
        for row in 0 ..< 3 {
            rows[row] = (0 ..< 3).map { z in String(cells[z][row].flatMap { [$0, " "] }.dropLast()) }
                .joined(separator: "   ")
        }
        return ["below   level   above"] + rows
    }

    public func panel(_ s: CompassCalibration.Snapshot, status: MotionStatus, now: Int64) -> Panel {
        latest = s
        if let shown = notice, shown.until == 0 { notice = (shown.text, now + 3_000_000_000) }
        if let shown = notice, now >= shown.until { notice = nil }
        // The panel's text column is 38 characters wide.
        var lines: [String]
        if !hasMagnetometer || (s.fieldSamples == 0 && status.samplesSeen > 200) {
            lines = ["This sensor has no magnetometer.",
                     "A Sense HAT, an MPU-9250 or a",
                     "BNO055 has one: see hardware.md."]
        } else {
            let percent = Int((s.coverage * 100).rounded())
            let filled = Int((s.coverage * 20).rounded())
            lines = ["Turn the board in a figure of 8:",
                     "face up, on edge, upside down,",
                     "until every direction is filled.",
                     ""]
            lines += Self.layers(s.hasFit ? s.covered : 0)
            lines += ["",
                      "Covered  [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 20 - filled))] \(percent) %",
                      "Accuracy \(s.hasFit ? s.accuracy.name : "uncalibrated")"]
            if s.hasFit {
                lines += ["Fit within \(MotionSampleText.decimal(s.residual * 100)) % of \(MotionSampleText.decimal(s.strength)) µT",
                          "Offset \(MotionSampleText.decimal(s.offset.x)) \(MotionSampleText.decimal(s.offset.y)) \(MotionSampleText.decimal(s.offset.z)) µT"]
            } else {
                lines.append("Readings \(s.readings)")
            }
        }
        lines.append("Sensor: \(sensorName)")
        let labels = KeepMenu.labels
        return Panel(title: "TiltMaze · Compass", lines: lines, items: labels, selected: selected, arena: GamePalette.floor,
                     square: Self.marker(s), hints: Self.hints, notice: notice?.text)
    }

    /// The latest reading's direction, seen from above the board: the middle
    /// is straight up or down (bright above, dim below), the edges level.
    static func marker(_ s: CompassCalibration.Snapshot) -> Panel.Square? {
        let d = s.direction
        guard s.hasFit, d.length > 0 else { return nil }
        return Panel.Square(x: 0.5 + 0.42 * d.x, y: 0.5 - 0.42 * d.y, size: 0.08,
                            color: d.z >= 0 ? Panel.squareColor : RGB(150, 120, 40))
    }
}
