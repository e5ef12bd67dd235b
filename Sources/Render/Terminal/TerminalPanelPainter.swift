// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Draws a `Panel` into terminal cells: the arena as half blocks (two
/// pixels a cell, so the square moves in half-cell steps vertically) on the
/// left, the text on the right, or under the arena when the terminal is narrow.
/// The damage-tracked screen sends only the cells that changed.
package final class TerminalPanelPainter {
    package let screen: CellGrid
    private let arena = Canvas(width: 1, height: 1)

    package init(screen: CellGrid) {
        self.screen = screen
    }

    package func paint(_ panel: Panel) -> UnsafeRawBufferPointer {
        let columns = screen.columns, rows = screen.rows
        screen.fillCells(column: 0, row: 0, width: columns, height: rows, background: GamePalette.margin)
        text(panel.title, column: 1, row: 0, fg: GamePalette.statusText, bg: GamePalette.statusBackground, fill: columns)

        // The arena: a square in pixels (cells are about twice as tall as wide).
        let wide = columns >= 70
        let rowsForArena = max(3, wide ? rows - 4 : rows / 2 - 2)
        let side = max(4, min(rowsForArena * 2, (wide ? columns / 2 : columns) - 4))
        arena.resize(width: side, height: side)
        arena.fill(panel.arena)
        if let square = panel.square {
            let s = max(1, Int((square.size * Double(side)).rounded()))
            let x = Int((square.x * Double(side)).rounded()) - s / 2
            let y = Int((square.y * Double(side)).rounded()) - s / 2
            arena.fillRect(x: x, y: y, width: s, height: s, color: square.color)
        }
        let arenaColumn = 2, arenaRow = 2
        screen.fillCells(column: arenaColumn - 1, row: arenaRow - 1, width: side + 2, height: (side + 1) / 2 + 2,
                         background: Panel.arenaFrame)
        screen.blitHalfBlocks(arena, column: arenaColumn, row: arenaRow)

        var row = wide ? arenaRow : arenaRow + (side + 1) / 2 + 2
        let column = wide ? arenaColumn + side + 3 : 2
        let room = columns - column - 1
        for line in panel.lines.flatMap({ Panel.wrapped($0, width: room) }) {
            text(line, column: column, row: row, fg: GamePalette.statusText, bg: GamePalette.margin, fill: room)
            row += 1
        }
        if !panel.items.isEmpty { row += 1 }
        for (i, item) in panel.items.enumerated() {
            let chosen = i == panel.selected
            text((chosen ? "\u{25B6} " : "  ") + item, column: column, row: row,
                 fg: chosen ? GamePalette.messageBackground : GamePalette.messageText,
                 bg: chosen ? GamePalette.messageText : GamePalette.messageBackground, fill: min(room, 24))
            row += 1
        }
        if let notice = panel.notice {
            // Whole, on as many lines as it takes: over the last lines above the hints if it would run past them.
            let lines = WrappedLines.lines(notice, width: room)
            row = max(min(row + 1, rows - 1 - lines.count), 1)
            for line in lines {
                text(line, column: column, row: row, fg: GamePalette.statusWarning, bg: GamePalette.margin, fill: room)
                row += 1
            }
        }
        text(panel.hints, column: 1, row: rows - 1, fg: GamePalette.footerText, bg: GamePalette.footerBackground, fill: columns - 1)
        return screen.encodeFrame()
    }

    /// Writes `s` (single-width scalars only; others show as `?`), padded with `bg` to `fill` cells, clipped to them.
    private func text(_ s: String, column: Int, row: Int, fg: RGB, bg: RGB, fill: Int) {
        guard row >= 0, row < screen.rows, fill > 0 else { return }
        screen.fillCells(column: column, row: row, width: fill, height: 1, background: bg)
        var c = column
        for scalar in s.unicodeScalars {
            guard c < column + fill else { break }
            screen.setCell(column: c, row: row, scalar: SingleWidthText.isSingleWidth(scalar) ? scalar : "?",
                           foreground: fg, background: bg)
            c += 1
        }
    }
}
