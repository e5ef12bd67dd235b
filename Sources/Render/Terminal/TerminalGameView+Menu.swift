// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// The menu box over the maze: a headline ("PAUSED", "You escaped in
/// 12.34 s") over the items, the highlighted one marked and inverted.
/// Drawn into the cells every frame while open; unchanged cells cost nothing.
extension TerminalGameView {
    /// Where a menu's box goes, in cells, and the width its items take.
    struct MenuBox: Equatable {
        var left: Int, top: Int, width: Int, height: Int
        var widest: Int
    }

    /// The box `state` is drawn in (its headline is written into `textBytes`).
    func menuBox(_ state: MenuState, snapshot: WorldSnapshot) -> MenuBox {
        var text = ByteWriter(textBytes)
        MenuText.headline(state, snapshot: snapshot, banner: banner, into: &text)
        let widest = MenuText.widest(state, headlineCount: text.count, labels: menuLabels)
        let width = widest + 6, height = state.items.count + 4
        return MenuBox(left: max((layout.columns - width) / 2, 0), top: max((layout.rows - height) / 2, 0),
                       width: width, height: height, widest: widest)
    }

    func drawMenu(_ state: MenuState, snapshot: WorldSnapshot, in box: MenuBox) {
        // Written again: the status line used the scratch since `menuBox`.
        var text = ByteWriter(textBytes)
        MenuText.headline(state, snapshot: snapshot, banner: banner, into: &text)
        let headline = UnsafeBufferPointer(start: text.base, count: text.count)
        let items = state.items
        let widest = box.widest, inner = box.width - 2
        let left = box.left, top = box.top, width = box.width, height = box.height
        let fg = GamePalette.messageText, bg = GamePalette.messageBackground
        screen.fillCells(column: left, row: top, width: width, height: height, background: bg)
        drawFrame(left: left, top: top, width: width, height: height, foreground: fg, background: bg)
        screen.drawText(headline, column: left + 1 + (inner - headline.count) / 2, row: top + 1,
                        foreground: fg, background: bg)

        let itemColumn = left + 1 + (inner - widest) / 2
        for (i, item) in items.enumerated() {
            let row = top + 3 + i
            let chosen = i == state.selected
            let (f, b) = chosen ? (bg, fg) : (fg, bg)
            if chosen { screen.fillCells(column: itemColumn - 1, row: row, width: widest + 1, height: 1, background: b) }
            screen.setCell(column: itemColumn, row: row, scalar: chosen ? "\u{25B6}" : " ", foreground: f, background: b)
            screen.drawText(MenuText.label(item, labels: menuLabels), column: itemColumn + 2, row: row, foreground: f, background: b)
        }
    }

    private func drawFrame(left: Int, top: Int, width: Int, height: Int, foreground fg: RGB, background bg: RGB) {
        let right = left + width - 1, bottom = top + height - 1
        for c in left + 1 ..< right {
            screen.setCell(column: c, row: top, scalar: "\u{2500}", foreground: fg, background: bg)
            screen.setCell(column: c, row: bottom, scalar: "\u{2500}", foreground: fg, background: bg)
        }
        for r in top + 1 ..< bottom {
            screen.setCell(column: left, row: r, scalar: "\u{2502}", foreground: fg, background: bg)
            screen.setCell(column: right, row: r, scalar: "\u{2502}", foreground: fg, background: bg)
        }
        screen.setCell(column: left, row: top, scalar: "\u{250C}", foreground: fg, background: bg)
        screen.setCell(column: right, row: top, scalar: "\u{2510}", foreground: fg, background: bg)
        screen.setCell(column: left, row: bottom, scalar: "\u{2514}", foreground: fg, background: bg)
        screen.setCell(column: right, row: bottom, scalar: "\u{2518}", foreground: fg, background: bg)
    }
}
