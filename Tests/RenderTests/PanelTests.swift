// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import Game
import MotionCore
import PNG
@testable import Render

@Suite("Panels: the calibration and ColorTilt screens in every back end")
struct PanelTests {
    func calibratePanel(square: (Double, Double) = (0.5, 0.5), notice: String? = nil) -> Panel {
        Panel(title: "TiltMaze · Calibrate", lines: ["Neutral: 12.0° from level (top edge up 12.0°)", "Correction: on"],
              items: ["Calibrate       c", "Zero            z", "Correction off  o", "Done            q"], selected: 1,
              arena: GamePalette.floor, square: .init(x: square.0, y: square.1, size: 0.1, color: Panel.squareColor),
              hints: "arrows+Enter choose · c calibrate · z zero · o correction · q done", notice: notice)
    }

    /// Writes the picture where a person can look at it (`TILTMAZE_PANEL_PNG_DIR`), when asked.
    func keep(_ canvas: Canvas, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["TILTMAZE_PANEL_PNG_DIR"] else { return }
        var bytes: [UInt8] = []
        for y in 0 ..< canvas.height { for x in 0 ..< canvas.width { let p = canvas[x, y]; bytes += [p.r, p.g, p.b] } }
        try PNGImage(width: canvas.width, height: canvas.height, pixels: bytes).write(to: "\(dir)/\(name).png")
    }

    @Test("framebuffer: the square is drawn where the model says, inside the framed arena; the text is there")
    func pixelSquare() throws {
        let painter = PixelPanelPainter(width: 800, height: 480)
        _ = painter.paint(calibratePanel(square: (0.25, 0.75)))
        try keep(painter.picture, "calibrate-800x480")
        var squarePixels: [(Int, Int)] = []
        for y in 0 ..< 480 { for x in 0 ..< 800 where painter.picture[x, y] == Panel.squareColor { squarePixels.append((x, y)) } }
        let xs = squarePixels.map(\.0), ys = squarePixels.map(\.1)
        let cx = Double(xs.min()! + xs.max()!) / 2, cy = Double(ys.min()! + ys.max()!) / 2
        // Arena: the left square under the title bar, half the width (400) on an 800×480 screen.
        let arenaX = 6.0, arenaY = 21.0, side = 400.0
        #expect(abs(cx - (arenaX + 0.25 * side)) <= 2 && abs(cy - (arenaY + 0.75 * side)) <= 2, "\(cx), \(cy)")
        #expect(painter.picture[Int(arenaX) - 1, Int(arenaY) + 10] == Panel.arenaFrame)
        // Text: the status colour appears to the right of the arena.
        let textPixels = (0 ..< 480).reduce(0) { n, y in n + (450 ..< 800).filter { painter.picture[$0, y] == GamePalette.statusText }.count }
        #expect(textPixels > 500)
    }

    @Test("framebuffer: after the first frame, only the bands that changed are sent, and they cover every change")
    func pixelDamage() throws {
        let painter = PixelPanelPainter(width: 800, height: 480)
        let first = painter.paint(calibratePanel(square: (0.5, 0.5)))
        #expect(first == [PixelRect(x: 0, y: 0, width: 800, height: 480)])
        #expect(painter.paint(calibratePanel(square: (0.5, 0.5))).isEmpty)
        let before = Canvas(width: 800, height: 480)
        before.copy(from: painter.picture)
        let moved = painter.paint(calibratePanel(square: (0.52, 0.5)))
        let area = moved.reduce(0) { $0 + $1.width * $1.height }
        #expect(!moved.isEmpty && area < 800 * 480 / 20, "\(moved)")
        for y in 0 ..< 480 {
            for x in 0 ..< 800 where painter.picture[x, y] != before[x, y] {
                #expect(moved.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }, "(\(x), \(y)) changed unsent")
            }
        }
    }

    @Test("terminal: title, arena with the square in half blocks, lines, the chosen item marked, the notice and the hints")
    func terminal() throws {
        let screen = CellGrid(columns: 100, rows: 30, colorMode: .truecolor)
        let painter = TerminalPanelPainter(screen: screen)
        var terminal = VTInterpreter(columns: 100, rows: 30)
        terminal.feed(painter.paint(calibratePanel(square: (0.5, 0.5), notice: "Neutral now level")))
        let rows = (0 ..< 30).map { terminal.text(row: $0) }
        #expect(rows[0].hasPrefix(" TiltMaze · Calibrate"))
        #expect(rows.contains { $0.contains("Neutral: 12.0° from level (top edge up 12.0°)") })
        #expect(rows.contains { $0.contains("\u{25B6} Zero            z") })
        #expect(rows.contains { $0.contains("  Calibrate       c") })
        #expect(rows.contains { $0.contains("Neutral now level") })
        #expect(rows[29].hasPrefix(" arrows+Enter choose"))
        let squareCells = (0 ..< 30).flatMap { r in (0 ..< 100).map { (r, $0) } }.filter { r, c in
            // A space's foreground is invisible: only a half block shows it.
            terminal[c, r].background == Panel.squareColor
                || (terminal[c, r].foreground == Panel.squareColor && terminal[c, r].scalar != " ")
        }
        #expect(!squareCells.isEmpty)
        let middleRow = Double(squareCells.map(\.0).reduce(0, +)) / Double(squareCells.count)
        // The arena is 46 pixels (23 rows) from row 2: its middle is row 13.5.
        #expect(abs(middleRow - 13.5) < 1.5, "the square is half way down the arena: row \(middleRow), \(squareCells)")
        // Moving the square sends only the cells it left and entered.
        let moved = painter.paint(calibratePanel(square: (0.55, 0.5), notice: "Neutral now level"))
        #expect(moved.count < 400, "\(moved.count) bytes")
    }

    @Test("terminal: every notice the motion screens give is wholly on screen, at 40 and at 100 columns",
          arguments: [(40, 12), (100, 30)] as [(Int, Int)])
    func terminalNoticesFit(columns: Int, rows: Int) {
        // As CalibrateScreen, OnDemandScreen and CompassScreen word them.
        let notices = ["Neutral now 12.0° from level (top edge up 12.0°)",
                       "Nothing to save: this accelerometer cannot be calibrated",
                       "Not yet: still to hold right edge up, left edge up, top edge up, bottom edge up, face down",
                       "Not yet: keep turning until the accuracy reads low or better"]
        for notice in notices {
            let screen = CellGrid(columns: columns, rows: rows, colorMode: .truecolor)
            let painter = TerminalPanelPainter(screen: screen)
            var terminal = VTInterpreter(columns: columns, rows: rows)
            terminal.feed(painter.paint(calibratePanel(notice: notice)))
            let shown = (0 ..< rows).map { terminal.text(row: $0) }
            // Each line of it in the warning colour, in order, the hints still at the bottom.
            let warned = (0 ..< rows).map { r in
                String(String.UnicodeScalarView((0 ..< columns).compactMap { c in
                    terminal[c, r].foreground == GamePalette.statusWarning && terminal[c, r].scalar != " " ? terminal[c, r].scalar : nil
                }))
            }.joined()
            #expect(warned == notice.filter { $0 != " " }, "\(shown.joined(separator: "\n"))")
            #expect(shown[rows - 1].hasPrefix(" arrows+Enter choose"), "\(shown.joined(separator: "\n"))")
        }
    }

    @Test("a line wider than the text column breaks at a space and goes on indented; a word wider than it is cut")
    func wrapping() {
        #expect(Panel.wrapped("Sensor: lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a", width: 30)
                == ["Sensor: lsm9ds1 (Sense HAT) on", "  /dev/i2c-1 at 0x6a"])
        #expect(Panel.wrapped("short", width: 30) == ["short"])
        #expect(Panel.wrapped("abcdefghij klm", width: 6) == ["abcdef", "  ghij", "  klm"])
        #expect(Panel.wrapped("Sensor: x", width: 9) == ["Sensor: x"])
    }

    @Test("terminal: in a narrow window a long sensor line wraps instead of losing its end")
    func terminalWraps() {
        let screen = CellGrid(columns: 80, rows: 30, colorMode: .truecolor)
        let painter = TerminalPanelPainter(screen: screen)
        var terminal = VTInterpreter(columns: 80, rows: 30)
        var panel = calibratePanel(square: (0.5, 0.5), notice: nil)
        panel.lines.append("Sensor: lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a")
        terminal.feed(painter.paint(panel))
        let rows = (0 ..< 30).map { terminal.text(row: $0) }
        #expect(rows.contains { $0.hasSuffix("0x6a") || $0.contains("at 0x6a ") }, "\(rows.joined(separator: "\n"))")
    }

    @Test("Sense HAT: the square is the one bright LED where it is; a colour fills the matrix at no more than half brightness")
    func senseHat() {
        let canvas = Canvas(width: 8, height: 8)
        SenseHatView.paint(calibratePanel(square: (0.9, 0.1)), into: canvas)
        #expect(canvas[7, 0] == SenseHatView.ball)
        #expect((0 ..< 64).filter { canvas[$0 % 8, $0 / 8] != RGB(0, 0, 0) }.count == 1)
        let red = Panel(title: "", arena: RGB(255, 40, 40), hints: "")  // ColorTilt's red at full intensity
        SenseHatView.paint(red, into: canvas)
        #expect(canvas[3, 3] == RGB(128, 20, 20))
        #expect((0 ..< 64).allSatisfy { canvas[$0 % 8, $0 / 8] == canvas[0, 0] })
    }
}
