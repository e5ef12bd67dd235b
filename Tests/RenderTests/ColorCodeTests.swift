// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("Colour codes")
struct ColorCodeTests {
    let fg = RGB(200, 100, 50), bg = RGB(10, 20, 30)

    @Test func colourCodesAreSentOnlyWhenTheColoursChange() {
        let screen = CellGrid(columns: 10, rows: 2, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.drawText("abc", column: 0, row: 0, foreground: fg, background: bg)
        screen.drawText("de", column: 5, row: 1, foreground: fg, background: bg)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(Fixtures.occurrences(of: "m", in: out) == 1)
        #expect(out.contains("\u{1B}[38;2;200;100;50;48;2;10;20;30mabc"))
    }

    @Test func onlyTheColourThatChangedIsSent() {
        let screen = CellGrid(columns: 10, rows: 1, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.drawText("a", column: 0, row: 0, foreground: fg, background: bg)
        screen.drawText("b", column: 1, row: 0, foreground: RGB(1, 2, 3), background: bg)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("a\u{1B}[38;2;1;2;3mb"))
    }

    @Test func aBlankCellSendsOnlyItsBackground() {
        let screen = CellGrid(columns: 4, rows: 1, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.fillCells(column: 1, row: 0, width: 2, height: 1, background: bg)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("\u{1B}[48;2;10;20;30m  "))
        #expect(!out.contains("38;"))
    }

    @Test func coloursTheTerminalAlreadyHasCarryOverToTheNextFrame() {
        let screen = CellGrid(columns: 4, rows: 1, colorMode: .truecolor)
        screen.drawText("abcd", column: 0, row: 0, foreground: fg, background: bg)
        _ = screen.encodeFrame()
        screen.drawText("x", column: 3, row: 0, foreground: fg, background: bg)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(!out.contains("m"))
    }

    @Test func paletteModeSendsPaletteIndexes() {
        let screen = CellGrid(columns: 2, rows: 1, colorMode: .palette256)
        _ = screen.encodeFrame()
        screen.drawText("a", column: 0, row: 0, foreground: RGB(255, 0, 0), background: RGB(0, 0, 255))
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("\u{1B}[38;5;196;48;5;21ma"))
    }

    @Test func inPaletteModeColoursThatMapToTheSameEntryCountAsUnchanged() {
        let screen = CellGrid(columns: 2, rows: 1, colorMode: .palette256)
        screen.drawText("a", column: 0, row: 0, foreground: RGB(255, 0, 0), background: RGB(0, 0, 0))
        _ = screen.encodeFrame()
        screen.drawText("a", column: 0, row: 0, foreground: RGB(250, 2, 1), background: RGB(3, 3, 3))
        _ = screen.encodeFrame()
        #expect(screen.lastEncoded.cellsEmitted == 0)
    }

    @Test func anUpperHalfBlockIsSentAsALowerHalfBlockWhenThatMatchesThePen() {
        let screen = CellGrid(columns: 2, rows: 1, colorMode: .truecolor)
        _ = screen.encodeFrame()
        screen.setCell(column: 0, row: 0, scalar: "\u{2580}", foreground: fg, background: bg)
        screen.setCell(column: 1, row: 0, scalar: "\u{2580}", foreground: bg, background: fg)
        let out = Fixtures.string(screen.encodeFrame())
        #expect(out.contains("\u{2580}\u{2584}"))
        #expect(Fixtures.occurrences(of: "m", in: out) == 1)
    }
}
