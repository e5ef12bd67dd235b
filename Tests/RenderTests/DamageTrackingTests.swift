// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("Damage tracking")
struct DamageTrackingTests {
    let floor = RGB(20, 20, 30), ball = RGB(220, 220, 230)

    /// A 6×2-cell screen showing a 6×4 canvas with one ball pixel at `x`.
    func compose(_ screen: CellGrid, _ canvas: Canvas, ballAt x: Int) {
        canvas.fill(floor)
        canvas[x, 1] = ball
        screen.blitHalfBlocks(canvas, column: 0, row: 0)
    }

    @Test func theFirstFrameClearsTheScreenAndDrawsEveryCell() {
        let screen = CellGrid(columns: 6, rows: 2, colorMode: .truecolor)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.hasPrefix("\u{1B}[?2026h\u{1B}[0m\u{1B}[2J"))
        #expect(out.hasSuffix("\u{1B}[?2026l"))
        #expect(screen.lastEncoded.cellsEmitted == 12)
        #expect(screen.lastEncoded.cellsSkipped == 0)
    }

    @Test func anIdenticalSecondFrameEmitsNoCellOnlyTheSynchronizedOutputWrapper() {
        let screen = CellGrid(columns: 6, rows: 2, colorMode: .truecolor)
        let canvas = Canvas(width: 6, height: 4)
        compose(screen, canvas, ballAt: 2)
        _ = screen.encodeFrame()
        compose(screen, canvas, ballAt: 2)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out == "\u{1B}[?2026h\u{1B}[?2026l")
        #expect(screen.lastEncoded == EncodedCells(bytes: 16, cellsEmitted: 0, cellsSkipped: 12))
    }

    @Test("a row nothing wrote is not compared; a row any drawing call wrote is, whichever call it was")
    func onlyTouchedRowsAreCompared() {
        let screen = CellGrid(columns: 6, rows: 3, colorMode: .truecolor)
        _ = screen.encodeFrame()
        _ = screen.encodeFrame()
        #expect(screen.lastEncoded == EncodedCells(bytes: 16, cellsEmitted: 0, cellsSkipped: 18))
        let canvas = Canvas(width: 6, height: 2)
        canvas.fill(ball)
        let writes: [(String, () -> Void)] = [
            ("setCell", { screen.setCell(column: 1, row: 2, scalar: "x", foreground: self.ball, background: self.floor) }),
            ("fillCells", { screen.fillCells(column: 0, row: 1, width: 2, height: 1, background: self.ball) }),
            ("drawText", { screen.drawText("hi", column: 3, row: 0, foreground: self.ball, background: self.floor) }),
            ("blitHalfBlocks", { screen.blitHalfBlocks(canvas, column: 0, row: 2, pixelX: 4, pixelY: 0, pixelWidth: 2, pixelHeight: 2) }),
        ]
        for (name, write) in writes {
            write()
            _ = screen.encodeFrame()
            #expect(screen.lastEncoded.cellsEmitted > 0, "\(name) reached the terminal")
            // Drawn again the same: compared, found the same, nothing sent.
            write()
            _ = screen.encodeFrame()
            #expect(screen.lastEncoded.cellsEmitted == 0, "\(name) again")
        }
    }

    @Test func movingOnePixelEmitsOnlyTheTwoChangedCells() {
        let screen = CellGrid(columns: 6, rows: 2, colorMode: .truecolor)
        let canvas = Canvas(width: 6, height: 4)
        compose(screen, canvas, ballAt: 2)
        var terminal = VTInterpreter(columns: 6, rows: 2)
        terminal.feed(screen.encodeFrame())
        compose(screen, canvas, ballAt: 4)
        terminal.feed(screen.encodeFrame())
        #expect(screen.lastEncoded.cellsEmitted == 2)
        #expect(screen.lastEncoded.cellsSkipped == 10)
        // What the terminal now shows is the composed frame.
        for c in 0 ..< 6 {
            let cell = normalized(terminal[c, 0])
            if c == 4 {
                #expect(cell == TerminalCell(scalar: "\u{2580}", foreground: floor, background: ball))
            } else {
                #expect(cell.scalar == " " && cell.background == floor)
            }
        }
    }

    @Test func theTerminalReadBackMatchesTheComposedFrameAfterManyFrames() {
        let screen = CellGrid(columns: 6, rows: 2, colorMode: .truecolor)
        let canvas = Canvas(width: 6, height: 4)
        var terminal = VTInterpreter(columns: 6, rows: 2)
        for x in [0, 5, 3, 3, 1, 2] {
            compose(screen, canvas, ballAt: x)
            terminal.feed(screen.encodeFrame())
            for r in 0 ..< 2 {
                for c in 0 ..< 6 {
                    let want = screen[c, r], got = normalized(terminal[c, r])
                    #expect(got.scalar == want.scalar && got.background == want.background)
                    #expect(got.isBlank || got.foreground == want.foreground)
                }
            }
        }
    }

    @Test func aChangeRightAfterTheLastEmittedCellNeedsNoCursorMove() {
        let screen = CellGrid(columns: 6, rows: 1, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.drawText("ab", column: 2, row: 0, foreground: ball, background: floor)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(Fixtures.occurrences(of: "H", in: out) == 1)
        #expect(out.contains("\u{1B}[1;3H"))
        #expect(out.contains("ab"))
    }

    @Test func aShortHopAlongTheRowUsesCursorForwardInsteadOfCUP() {
        let screen = CellGrid(columns: 40, rows: 12, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.drawText("a", column: 20, row: 10, foreground: ball, background: floor)
        screen.drawText("b", column: 23, row: 10, foreground: ball, background: floor)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("\u{1B}[11;21H"))
        #expect(out.contains("a\u{1B}[2Cb"))
    }

    @Test func resizeMakesTheNextFrameAFullRedraw() {
        let screen = CellGrid(columns: 6, rows: 2, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.resize(columns: 8, rows: 3)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("\u{1B}[2J"))
        #expect(screen.lastEncoded.cellsEmitted == 24)
    }
}
