// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Rasterising a `Canvas` into terminal cells, two vertical pixels per cell:
/// the upper half block U+2580 in the top pixel's colour on the bottom
/// pixel's colour. Half blocks are in the Linux console font too, unlike
/// sextants or braille, and they give square-ish pixels in a 1:2 cell.
extension CellGrid {
    /// Draws the whole canvas with its top-left pixel in the top half of
    /// cell (column, row); cells off the screen are skipped.
    public func blitHalfBlocks(_ canvas: Canvas, column: Int, row: Int) {
        blitHalfBlocks(canvas, column: column, row: row,
                       pixelX: 0, pixelY: 0, pixelWidth: canvas.width, pixelHeight: canvas.height)
    }

    /// Draws only the cells that cover a pixel rectangle of the canvas, so a
    /// frame can refresh where a sprite was and is without touching the rest.
    public func blitHalfBlocks(_ canvas: Canvas, column: Int, row: Int,
                               pixelX: Int, pixelY: Int, pixelWidth: Int, pixelHeight: Int) {
        let x0 = max(pixelX, 0, -column)
        let x1 = min(pixelX + pixelWidth, canvas.width, columns - column)
        // Whole cells: an odd first pixel row still needs its cell's other half.
        let cellRow0 = max(max(pixelY, 0) >> 1, -row)
        let cellRow1 = min((min(pixelY + pixelHeight, canvas.height) + 1) >> 1, rows - row)
        guard x0 < x1, cellRow0 < cellRow1 else { return }
        let width = canvas.width
        let pixels = canvas.pixels
        for cellRow in cellRow0 ..< cellRow1 {
            let topY = cellRow &* 2
            let hasBottom = topY &+ 1 < canvas.height
            let screenRow = row &+ cellRow
            touchedRows[screenRow] = true
            let screenStart = screenRow &* columns &+ column
            for x in x0 ..< x1 {
                let top = pixels[topY &* width &+ x]
                let index = screenStart &+ x
                // An odd canvas height leaves the last bottom half as it was.
                let bottom = hasBottom ? pixels[(topY &+ 1) &* width &+ x] : cells[index].background
                cells[index] = top == bottom
                    ? TerminalCell(scalar: " ", foreground: top, background: top)
                    : TerminalCell(scalar: Self.upperHalfBlock, foreground: top, background: bottom)
            }
        }
    }
}
