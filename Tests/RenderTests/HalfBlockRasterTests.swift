// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("Half-block rasterising")
struct HalfBlockRasterTests {
    let red = RGB(255, 0, 0), blue = RGB(0, 0, 255)

    @Test func twoDifferentPixelsBecomeAnUpperHalfBlockWithTopAsForegroundAndBottomAsBackground() {
        let canvas = Canvas(width: 1, height: 2)
        canvas[0, 0] = red
        canvas[0, 1] = blue
        let screen = CellGrid(columns: 3, rows: 2, colorMode: .truecolor)
        screen.blitHalfBlocks(canvas, column: 1, row: 1)
        #expect(screen[1, 1] == TerminalCell(scalar: "\u{2580}", foreground: red, background: blue))
        #expect(screen[0, 1] == .blank)
    }

    @Test func twoEqualPixelsBecomeASpaceInThatBackground() {
        let canvas = Canvas(width: 1, height: 2)
        canvas.fill(blue)
        let screen = CellGrid(columns: 1, rows: 1, colorMode: .truecolor)
        screen.blitHalfBlocks(canvas, column: 0, row: 0)
        #expect(screen[0, 0].scalar == " ")
        #expect(screen[0, 0].background == blue)
    }

    @Test func anOddLastPixelRowKeepsTheCellsBackgroundBelowIt() {
        let canvas = Canvas(width: 1, height: 1)
        canvas[0, 0] = red
        let screen = CellGrid(columns: 1, rows: 1, colorMode: .truecolor)
        screen.fillCells(column: 0, row: 0, width: 1, height: 1, background: blue)
        screen.blitHalfBlocks(canvas, column: 0, row: 0)
        #expect(screen[0, 0] == TerminalCell(scalar: "\u{2580}", foreground: red, background: blue))
    }

    @Test func aCanvasHangingOffTheScreenIsClipped() {
        let canvas = Canvas(width: 4, height: 4)
        canvas.fill(red)
        let screen = CellGrid(columns: 3, rows: 2, colorMode: .truecolor)
        screen.blitHalfBlocks(canvas, column: -2, row: 1)
        #expect(screen[0, 1].background == red)
        #expect(screen[1, 1].background == red)
        #expect(screen[2, 1] == .blank)
        #expect(screen[0, 0] == .blank)
    }

    @Test func aPixelRectangleBlitsOnlyTheCellsCoveringIt() {
        let canvas = Canvas(width: 4, height: 4)
        canvas.fill(red)
        let screen = CellGrid(columns: 4, rows: 2, colorMode: .truecolor)
        screen.blitHalfBlocks(canvas, column: 0, row: 0, pixelX: 1, pixelY: 3, pixelWidth: 2, pixelHeight: 1)
        #expect(screen[1, 1].background == red)
        #expect(screen[2, 1].background == red)
        #expect(screen[0, 1] == .blank)
        #expect(screen[1, 0] == .blank)
    }
}
