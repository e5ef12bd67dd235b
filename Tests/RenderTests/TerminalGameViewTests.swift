// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Controls
import Game
@testable import Render

@Suite("Game screen")
struct TerminalGameViewTests {
    /// Feeds every frame to a terminal emulator, as the real terminal would see them.
    final class Harness {
        let game: TerminalGameView
        var terminal: VTInterpreter
        init(columns: Int = 80, rows: Int = 24, colorMode: ColorMode = .truecolor) {
            game = TerminalGameView(level: Fixtures.level, sensorName: "simulated", colorMode: colorMode,
                              columns: columns, rows: rows)
            terminal = VTInterpreter(columns: columns, rows: rows)
        }
        @discardableResult
        func show(_ snapshot: WorldSnapshot, menu: MenuState? = nil) -> Int {
            let bytes = game.frame(for: snapshot, menu: menu)
            terminal.feed(bytes)
            return bytes.count
        }
    }

    @Test func theStatusLineShowsTitleTimeCatchesAndPause() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 12.34, catches: 2, status: .paused, lives: 1, score: 40))
        #expect(h.terminal.text(row: 0).hasPrefix(" Test Maze   12.3 s  lives 1  score 40  PAUSED "))
    }

    @Test func theStatusLineDropsPausedWhilePlaying() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 0.05, status: .paused))
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 7, catches: 0))
        #expect(h.terminal.text(row: 0).hasPrefix(" Test Maze   7.0 s  lives 3  score 0    "))
    }

    @Test func theStatusLineNamesTheSensorOnTheRight() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 1))
        let status = h.terminal.text(row: 0)
        #expect(status.hasPrefix(" Test Maze   1.0 s  lives 3  score 0 "))
        #expect(status.hasSuffix("sensor: simulated "))
        #expect(h.terminal[70, 0].foreground == GamePalette.sensorText)
    }

    @Test func theFooterShowsTheKeyHints() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        #expect(h.terminal.text(row: 23).hasPrefix(" arrows/WASD tilt · space level · p/Enter menu · r restart · q quit"))
    }

    @Test("while a menu is open the bottom line gives the menu's keys; when it closes, the game's again")
    func theFooterFollowsTheMenu() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), status: .paused), menu: MenuState(.paused))
        #expect(h.terminal.text(row: 23).hasPrefix(" arrows move · Enter choose · Esc back · q quit "))
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        #expect(h.terminal.text(row: 23).hasPrefix(" arrows/WASD tilt · space level · p/Enter menu · r restart · q quit"))
    }

    @Test("short of room, the status line keeps the sensor and its reason and drops the screen's")
    func theSensorsReasonOutlastsTheScreens() {
        let game = TerminalGameView(level: Fixtures.level, sensorName: "simulated board (no IMU found) · terminal (not a console)",
                              colorMode: .truecolor, columns: 80, rows: 24)
        var terminal = VTInterpreter(columns: 80, rows: 24)
        terminal.feed(game.frame(for: Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 3)))
        #expect(terminal.text(row: 0).hasSuffix("sensor: simulated board (no IMU found) "), "\(terminal.text(row: 0))")
        let wide = TerminalGameView(level: Fixtures.level, sensorName: "simulated board (no IMU found) · terminal (not a console)",
                              colorMode: .truecolor, columns: 140, rows: 24)
        var wideTerminal = VTInterpreter(columns: 140, rows: 24)
        wideTerminal.feed(wide.frame(for: Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 3)))
        #expect(wideTerminal.text(row: 0).hasSuffix("sensor: simulated board (no IMU found) · terminal (not a console) "))
    }

    @Test func aLongSensorNameIsCutSoTheGameFiguresStayVisible() {
        let game = TerminalGameView(level: Fixtures.level, sensorName: "iio:device0 mpu6050 on /sys/bus/iio/devices/iio:device0",
                              colorMode: .truecolor, columns: 80, rows: 24)
        var terminal = VTInterpreter(columns: 80, rows: 24)
        terminal.feed(game.frame(for: Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 3, status: .paused)))
        let status = terminal.text(row: 0)
        #expect(status.hasPrefix(" Test Maze   3.0 s  lives 3  score 0  PAUSED   sensor: iio:device0 mpu6050"))
        #expect(status.hasSuffix("\u{2026} "))
    }

    @Test func aNarrowTerminalCutsTheKeyHints() {
        let game = TerminalGameView(level: Fixtures.level, sensorName: "s", colorMode: .truecolor, columns: 30, rows: 24)
        var terminal = VTInterpreter(columns: 30, rows: 24)
        terminal.feed(game.frame(for: Fixtures.snapshot(ball: Point(1.5, 1.5))))
        let footer = terminal.text(row: 23)
        #expect(footer.hasPrefix("arrows/WASD tilt · space leve"))
        #expect(footer.hasSuffix("\u{2026}"))
    }

    @Test func theMazeIsScaledByTheLargestWholeFactorAndCentred() {
        let h = Harness()
        // 20×10 cells on 80 columns × 44 pixel rows: factor 4, 80×40 pixels, 2 pixel rows above.
        #expect(h.game.layout.scale == 4)
        #expect(h.game.layout.originX == 0 && h.game.layout.originY == 2)
        h.show(Fixtures.snapshot(ball: Point(10.5, 6.5)))
        // Screen row 1 = pixel rows 0–1: margin. Row 2 = pixel rows 2–3: the top wall.
        #expect(h.terminal[40, 1].background == GamePalette.margin)
        #expect(h.terminal[40, 2].background == GamePalette.wall)
        // Cell (1, 2) of the maze is floor: pixels x 4–7, y 2+8 … 2+11 = screen rows 6–7.
        #expect(h.terminal[5, 6].background == GamePalette.floor)
        // The exit at (18, 1): pixels x 72–75, y 6–9 = screen rows 4–5.
        #expect(h.terminal[73, 4].background == GamePalette.exit)
    }

    @Test func theBallIsDrawnWhereTheSnapshotPutsIt() {
        let h = Harness()
        // Ball centre (10.5, 6.5) cells = pixel (42, 28) = screen column 42, row 1 + 14.
        h.show(Fixtures.snapshot(ball: Point(10.5, 6.5)))
        let cell = h.terminal[42, 15]
        #expect(cell.background == GamePalette.pacman || cell.foreground == GamePalette.pacman)
        #expect(h.terminal[30, 15].background == GamePalette.floor)
    }

    @Test func aBallTooSmallForAnyPixelCentreStillShowsOnePixel() {
        let game = TerminalGameView(level: Fixtures.level, sensorName: "s", colorMode: .truecolor, columns: 20, rows: 7)
        #expect(game.layout.scale == 1)
        _ = game.frame(for: Fixtures.snapshot(ball: Point(5.05, 5.05)))
        // Pixel (5, 5) is in screen row 1 + 2, bottom half.
        #expect(game.picture[5, 5] == GamePalette.pacman)
    }

    @Test func ghostsAreDrawnInTheirOwnColours() {
        let h = Harness()
        var snapshot = Fixtures.snapshot(ball: Point(1.5, 1.5))
        snapshot.ghostCount = 2
        snapshot.ghosts[0] = Point(5.5, 2.5)
        snapshot.ghosts[1] = Point(8.5, 2.5)
        h.show(snapshot)
        #expect(h.game.picture[22, 12] == GamePalette.ghost(0))
        #expect(h.game.picture[34, 12] == GamePalette.ghost(1))
        #expect(GamePalette.ghost(0) != GamePalette.ghost(1))
    }

    @Test func theStatusLineTurnsRedWhileTheCaughtFlashLasts() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), caughtFlash: 10))
        #expect(h.terminal[0, 0].background == GamePalette.statusCaughtBackground)
        #expect(h.terminal[40, 1].background != GamePalette.margin) // the picture is tinted
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), caughtFlash: 0))
        #expect(h.terminal[0, 0].background == GamePalette.statusBackground)
        #expect(h.terminal[40, 1].background == GamePalette.margin)
    }

    @Test func theWinMenuShowsTheEscapeTimeAndItsChoicesCentred() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(18.5, 1.5), elapsed: 12.345, status: .won), menu: MenuState(.won))
        let rows = (0 ..< 24).map { h.terminal.text(row: $0) }
        let headline = rows.firstIndex { $0.contains("Escaped in 12.34 s") }
        #expect(headline != nil)
        if let headline {
            #expect(rows[headline + 2].contains("\u{25B6} Play again   r"))
            #expect(rows[headline + 3].contains("  Quit         q"))
            #expect(headline == 10)
            let start = rows[headline].ranges(of: "Escaped").first!.lowerBound
            let column = rows[headline].distance(from: rows[headline].startIndex, to: start)
            #expect(abs(column - (80 - 18) / 2) <= 1)
        }
    }

    @Test func thePauseMenuMarksAndInvertsTheChosenItem() throws {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 2, status: .paused), menu: MenuState(.paused, selected: 1))
        let rows = (0 ..< 24).map { h.terminal.text(row: $0) }
        let title = try #require(rows.firstIndex { $0.contains("PAUSED") && !$0.contains("Test Maze") })
        #expect(rows[title + 2].contains("  Resume       p"))
        #expect(rows[title + 3].contains("\u{25B6} Restart      r"))
        #expect(rows[title + 4].contains("  Calibrate here"))
        #expect(rows[title + 5].contains("  Settings"))
        #expect(rows[title + 6].contains("  Quit         q"))
        let column = rows[title + 3].distance(from: rows[title + 3].startIndex, to: rows[title + 3].ranges(of: "Restart").first!.lowerBound)
        #expect(h.terminal[column, title + 3].background == GamePalette.messageText)
        #expect(h.terminal[column, title + 2].background == GamePalette.messageBackground)
    }

    @Test func closingTheMenuRepaintsTheMaze() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), status: .paused), menu: MenuState(.paused))
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        #expect(!(0 ..< 24).contains { h.terminal.text(row: $0).contains("Resume") })
        #expect(h.terminal[40, 12].background == GamePalette.floor)
    }

    /// Pause → Levels → Back: the level list is taller than the pause menu,
    /// and its rows outside the pause box once stayed on screen, Back and
    /// its cursor beside the pause menu's.
    @Test func goingBackFromTheLevelListLeavesOnlyThePauseMenu() {
        let h = Harness()
        let paused = Fixtures.snapshot(ball: Point(1.5, 1.5), status: .paused)
        h.show(paused, menu: MenuState(.paused, selected: 2))
        let levels = (0 ..< 8).map { GameMenu.Item.level($0) } + [.back]
        h.show(paused, menu: MenuState(.levels, items: levels, selected: 8))
        #expect((0 ..< 24).contains { h.terminal.text(row: $0).contains("Back") })
        h.show(paused, menu: MenuState(.paused, selected: 2))
        let screen = (0 ..< 24).map { h.terminal.text(row: $0) }
        #expect(!screen.contains { $0.contains("Back") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.map { $0.filter { $0 == "\u{25B6}" }.count }.reduce(0, +) == 1, "\(screen.joined(separator: "\n"))")
    }

    @Test func aNoticeReplacesPausedOnTheStatusLine() {
        let h = Harness()
        h.game.setNotice("DualSense disconnected: waiting for it to come back")
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 4, status: .paused))
        let status = h.terminal.text(row: 0)
        // Too long for what the line has left at 80 columns: whole, on a line of its own under it.
        #expect(status.hasPrefix(" Test Maze   4.0 s  lives 3  score 0   "))
        #expect(!status.contains("PAUSED"))
        #expect(h.terminal.text(row: 1).hasPrefix(" DualSense disconnected: waiting for it to come back "))
        #expect(h.terminal[1, 1].foreground == GamePalette.statusWarning)
        h.game.setNotice("DualSense disconnected")
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 4, status: .paused))
        #expect(h.terminal.text(row: 0).hasPrefix(" Test Maze   4.0 s  lives 3  score 0   DualSense disconnected "))
        #expect(h.terminal[40, 0].foreground == GamePalette.statusWarning)
        h.game.setNotice(nil)
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 4, status: .paused))
        #expect(h.terminal.text(row: 0).hasPrefix(" Test Maze   4.0 s  lives 3  score 0  PAUSED "))
    }

    /// The notices the game shows, as the code that sets them words them (issue 51).
    static let notices = [
        "level 2 is locked: each level opens when the one before it is won (level 1 is next)",
        "the recording recordings/broad-21-fast-combined.csv has ended: q quits",
        "DualSense disconnected: waiting for it to come back",
        "the data-ready interrupt never fired (is INT wired to GPIO4, or `int_pin=` set?): polling instead",
        "Neutral: 12.0° from level (top edge up 12.0°)",
        "saved /home/pi/.local/state/tiltmaze/screenshots/tiltmaze-1765000000-1234.png",
    ]

    /// The screen's text with every space taken out, rows joined: a text
    /// shown whole, on one line or several, is in it with its spaces taken out.
    static func squeezed(_ terminal: VTInterpreter, rows: Int) -> String {
        (0 ..< rows).map { terminal.text(row: $0) }.joined().filter { $0 != " " }
    }

    @Test("every notice is wholly on screen, on the status line or on lines under it, at 40 and at 100 columns",
          arguments: [(40, 12), (100, 30)] as [(Int, Int)])
    func everyNoticeIsShownWhole(columns: Int, rows: Int) {
        for notice in Self.notices {
            let h = Harness(columns: columns, rows: rows)
            h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 15.3, status: .paused))
            h.game.setNotice(notice)
            h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 15.3, status: .paused))
            let screen = (0 ..< rows).map { h.terminal.text(row: $0) }.joined(separator: "\n")
            #expect(Self.squeezed(h.terminal, rows: rows).contains(notice.filter { $0 != " " }), "\(screen)")
            // The status line keeps the title and the clock, and the key hints stay.
            #expect(h.terminal.text(row: 0).hasPrefix(" Test Maze   15.3 s"), "\(screen)")
            #expect(h.terminal.text(row: rows - 1).contains("arrows"), "\(screen)")
            // Gone, the maze is whole again where its lines were.
            h.game.setNotice(nil)
            h.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 15.3, status: .paused))
            let fresh = Harness(columns: columns, rows: rows)
            fresh.show(Fixtures.snapshot(ball: Point(1.5, 1.5), elapsed: 15.3, status: .paused))
            for row in 1 ..< rows - 1 {
                #expect(h.terminal.text(row: row) == fresh.terminal.text(row: row), "row \(row)\n\(screen)")
                // What shows: the character, its background, and its colour where it is not a space.
                let differing = (0 ..< columns).filter {
                    let a = h.terminal[$0, row], b = fresh.terminal[$0, row]
                    return a.scalar != b.scalar || a.background != b.background || (a.scalar != " " && a.foreground != b.foreground)
                }
                #expect(differing.isEmpty, "row \(row) columns \(differing): \(differing.first.map { (h.terminal[$0, row], fresh.terminal[$0, row]) } as Any)\n\(screen)")
            }
        }
    }

    @Test("a notice under the status line stays whole while the ball moves under it")
    func aNoticeOverTheMazeStaysWhole() {
        let h = Harness(columns: 40, rows: 12)
        h.game.setNotice(Self.notices[0])
        for step in 0 ..< 20 {
            h.show(Fixtures.snapshot(ball: Point(1.5 + Double(step) * 0.8, 1.5)))
            #expect(Self.squeezed(h.terminal, rows: 12).contains(Self.notices[0].filter { $0 != " " }))
        }
    }

    @Test func restartingAfterAWinRemovesTheMessage() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(18.5, 1.5), elapsed: 3, status: .won), menu: MenuState(.won))
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        #expect(!(0 ..< 24).contains { h.terminal.text(row: $0).contains("escaped") })
        #expect(h.terminal[40, 12].background == GamePalette.floor)
    }

    @Test func aTerminalTooSmallForTheMazeSaysWhatSizeItNeeds() {
        let h = Harness(columns: 30, rows: 5)
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        // 20 columns and 10 maze rows = 5 cell rows, plus status and footer.
        #expect(h.terminal.text(row: 0).hasPrefix(" need 20x7, now 30x5   Test Ma"))
        #expect(!h.game.layout.fits)
        // What fits is drawn: centred across, from the top down.
        #expect(h.terminal[4, 1].background == GamePalette.margin)
        #expect(h.terminal[5, 1].background == GamePalette.wall)
        #expect(h.terminal[6, 2].background == GamePalette.floor)
    }

    @Test("too small, the screen says the size the maze needs and the size it has, whole, down to a tiny terminal",
          arguments: [(12, 3), (16, 4), (19, 6), (29, 5), (45, 6), (60, 6)] as [(Int, Int)])
    func theSizeWarningFitsATinyTerminal(columns: Int, rows: Int) {
        let h = Harness(columns: columns, rows: rows)
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        let screen = (0 ..< rows).map { h.terminal.text(row: $0) }.joined(separator: "\n")
        let text = Self.squeezed(h.terminal, rows: rows)
        #expect(text.contains("need20x7,now\(columns)x\(rows)"), "\(screen)")
        if columns >= 45 { #expect(text.contains("terminaltoosmall:need20x7,now\(columns)x\(rows)"), "\(screen)") }
        if columns >= 60 { #expect(text.contains("terminaltoosmall:need20x7,now\(columns)x\(rows)TestMaze"), "\(screen)") }
    }

    @Test("a notice on a terminal too small for the maze goes under the size warning, both whole")
    func aNoticeAndTheSizeWarningBothShow() {
        let h = Harness(columns: 16, rows: 11)
        h.game.setNotice(Self.notices[1])
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        let screen = (0 ..< 11).map { h.terminal.text(row: $0) }.joined(separator: "\n")
        let text = Self.squeezed(h.terminal, rows: 11)
        #expect(text.contains("need20x7,now16x11"), "\(screen)")
        #expect(text.contains(Self.notices[1].filter { $0 != " " }), "\(screen)")
    }

    @Test("the view says whether the maze is shown whole, and says it again after a resize")
    func itSaysWhetherTheMazeShowsWhole() {
        let h = Harness(columns: 20, rows: 7)
        #expect(h.game.showsWholeMaze)
        h.game.resize(columns: 19, rows: 7)
        #expect(!h.game.showsWholeMaze)
        h.game.resize(columns: 40, rows: 6)
        #expect(!h.game.showsWholeMaze)
        h.game.resize(columns: 40, rows: 12)
        #expect(h.game.showsWholeMaze)
    }

    @Test func aTerminalThatFitsHasNoSizeWarning() {
        let h = Harness(columns: 20, rows: 7)
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        #expect(!h.terminal.text(row: 0).contains("too small"))
    }

    @Test(arguments: [(0, 0), (1, 1), (2, 2), (3, 3), (7, 4), (19, 7), (200, 100)] as [(Int, Int)])
    func everyTerminalSizeDrawsWithoutTrapping(columns: Int, rows: Int) {
        let h = Harness(columns: columns, rows: rows)
        var snapshot = Fixtures.snapshot(ball: Point(18.9, 8.9), elapsed: 1e9, catches: 12345)
        snapshot.ghostCount = 16
        for g in 0 ..< 16 { snapshot.ghosts[g] = Point(Double(g) * 1.3 - 3, 1e12) }
        h.show(snapshot)
        snapshot.status = .won
        snapshot.caughtFlash = 3
        h.show(snapshot)
        h.game.resize(columns: rows, rows: columns)
        _ = h.game.frame(for: snapshot)
    }

    @Test func titlesKeepOneCellPerCharacter() {
        let level = Level(title: "Été 迷路 🙂", width: 1, height: 1, cells: [.floor], start: (0, 0), ghosts: [])
        let game = TerminalGameView(level: level, sensorName: "s", colorMode: .truecolor, columns: 40, rows: 5)
        var terminal = VTInterpreter(columns: 40, rows: 5)
        terminal.feed(game.frame(for: Fixtures.snapshot(ball: Point(0.5, 0.5))))
        #expect(terminal.text(row: 0).hasPrefix(" Été ?? ?   0.0 s"))
    }

    @Test func resizingRedrawsEverythingAtTheNewSize() {
        let h = Harness()
        h.show(Fixtures.snapshot(ball: Point(1.5, 1.5)))
        h.game.resize(columns: 100, rows: 30)
        var terminal = VTInterpreter(columns: 100, rows: 30)
        terminal.feed(h.game.frame(for: Fixtures.snapshot(ball: Point(1.5, 1.5))))
        #expect(h.game.cellGrid.lastEncoded.cellsEmitted == 3000)
        #expect(h.game.layout.scale == 5)
        #expect(terminal.text(row: 0).hasSuffix("sensor: simulated "))
        #expect(terminal.text(row: 29).hasPrefix(" arrows/WASD tilt"))
    }

    /// The ball rolls along maze row 2 from column 1 to 18, `step` cells a
    /// frame, with the clock running at 60 frames a second.
    @Test(arguments: [1.0, 0.25, 1.0 / 60])
    func aBallRollingAcross80x24CostsUnder150BytesAFrameAfterTheFirst(step: Double) {
        for mode in [ColorMode.truecolor, .palette256] {
            let h = Harness(colorMode: mode)
            h.show(Fixtures.snapshot(ball: Point(1.5, 2.5)))
            let frames = Int((17 / step).rounded())
            var total = 0
            for i in 1 ... frames {
                let x = 1.5 + Double(i) * step
                total += h.show(Fixtures.snapshot(ball: Point(x, 2.5), elapsed: Double(i) / 60))
            }
            let average = Double(total) / Double(frames)
            print("ball rolling \(step) cells a frame, \(mode): \(average) bytes a frame on average over \(frames) frames")
            #expect(average < 150, "\(mode): \(average) bytes a frame")
            // The terminal shows the ball where it ended: pixel (74, 12) = column 74, screen row 7.
            let shown = normalized(h.terminal[74, 7]), composed = h.game.cellGrid[74, 7]
            func onTerminal(_ c: RGB) -> RGB {
                mode == .palette256 ? XtermPalette.color(of: XtermPalette.index(of: c)) : c
            }
            #expect(composed.foreground == GamePalette.pacman || composed.background == GamePalette.pacman)
            #expect(shown.foreground == onTerminal(composed.foreground))
            #expect(shown.background == onTerminal(composed.background))
        }
    }
}
