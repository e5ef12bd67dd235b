/// The two text rows: the status line on top (rewritten every frame; the
/// damage tracking sends only the characters that changed, typically the
/// tenths of the clock) and the footer at the bottom (written at layout time).
extension GameScreen {
    /// ` Title   12.3 s   caught 2   PAUSED`, led by the size warning when the
    /// maze does not fit. Red while the caught flash lasts.
    func drawStatusLine(_ snapshot: WorldSnapshot, tinted: Bool) {
        guard layout.rows > 0 else { return }
        let foreground = GamePalette.statusText
        let background = tinted ? GamePalette.statusCaughtBackground : GamePalette.statusBackground
        screen.fillCells(column: 0, row: 0, width: layout.columns, height: 1, background: background)
        var column = 1
        var text = ByteWriter(textBytes)
        if !layout.fits {
            text.append("terminal too small: need ")
            text.appendDecimal(layout.neededColumns)
            text.append(UInt8(ascii: "x"))
            text.appendDecimal(layout.neededRows)
            column = drawText(text, column: column, foreground: GamePalette.statusWarning, background: background) + 3
            text.reset()
        }
        column = screen.drawScalars(UnsafeBufferPointer(title), column: column, row: 0,
                                    foreground: foreground, background: background) + 3
        text.appendSeconds(snapshot.elapsed, decimals: 1)
        text.append(" s   caught ")
        text.appendDecimal(snapshot.catches)
        if snapshot.status == .paused { text.append("   PAUSED") }
        drawText(text, column: column, foreground: foreground, background: background)
    }

    /// The key hints right-aligned, `sensor: <name>` on the left. The hints
    /// win when space is short (a player needs the keys more than the name),
    /// so the name is cut with an ellipsis first.
    func drawFooter() {
        guard let row = layout.footerRow else { return }
        let foreground = GamePalette.footerText, background = GamePalette.footerBackground
        screen.fillCells(column: 0, row: row, width: layout.columns, height: 1, background: background)
        let name = footerLeft.count, hints = footerHints.count
        let margin = name + hints + 4 <= layout.columns ? 1 : 0
        let hintsColumn = max(layout.columns - margin - hints, 0)
        screen.drawScalars(UnsafeBufferPointer(footerHints), column: hintsColumn, row: row,
                           foreground: foreground, background: background)
        let room = hintsColumn - 2 - margin
        if room >= name {
            screen.drawScalars(UnsafeBufferPointer(footerLeft), column: margin, row: row,
                               foreground: foreground, background: background)
        } else if room >= 2 {
            let end = screen.drawScalars(UnsafeBufferPointer(rebasing: footerLeft[0 ..< room - 1]),
                                         column: margin, row: row, foreground: foreground, background: background)
            screen.setCell(column: end, row: row, scalar: "\u{2026}", foreground: foreground, background: background)
        }
    }

    @discardableResult
    private func drawText(_ text: ByteWriter, column: Int, foreground: RGB, background: RGB) -> Int {
        screen.drawText(UnsafeBufferPointer(start: text.base, count: text.count), column: column, row: 0,
                        foreground: foreground, background: background)
    }
}
