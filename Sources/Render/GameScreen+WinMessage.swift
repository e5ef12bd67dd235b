/// The box shown over the maze once the ball reaches an exit.
extension GameScreen {
    static let winPrompt: StaticString = "r: play again   q: quit"

    /// A framed, centred box: "You escaped in 12.34 s" over the key prompt.
    /// Drawn into the cells every frame while won; unchanged cells cost nothing.
    func drawWinMessage(elapsed: Double) {
        var text = ByteWriter(textBytes)
        text.append("You escaped in ")
        text.appendSeconds(elapsed, decimals: 2)
        text.append(" s")
        let headline = UnsafeBufferPointer(start: text.base, count: text.count)
        let prompt = UnsafeBufferPointer(start: Self.winPrompt.utf8Start, count: Self.winPrompt.utf8CodeUnitCount)

        let inner = max(headline.count, prompt.count) + 4
        let width = inner + 2, height = 4
        let left = (layout.columns - width) / 2
        let top = max((layout.rows - height) / 2, 0)
        let fg = GamePalette.messageText, bg = GamePalette.messageBackground

        screen.fillCells(column: left, row: top, width: width, height: height, background: bg)
        for c in left + 1 ..< left + width - 1 {
            screen.setCell(column: c, row: top, scalar: "\u{2500}", foreground: fg, background: bg)
            screen.setCell(column: c, row: top + 3, scalar: "\u{2500}", foreground: fg, background: bg)
        }
        for r in top + 1 ... top + 2 {
            screen.setCell(column: left, row: r, scalar: "\u{2502}", foreground: fg, background: bg)
            screen.setCell(column: left + width - 1, row: r, scalar: "\u{2502}", foreground: fg, background: bg)
        }
        screen.setCell(column: left, row: top, scalar: "\u{250C}", foreground: fg, background: bg)
        screen.setCell(column: left + width - 1, row: top, scalar: "\u{2510}", foreground: fg, background: bg)
        screen.setCell(column: left, row: top + 3, scalar: "\u{2514}", foreground: fg, background: bg)
        screen.setCell(column: left + width - 1, row: top + 3, scalar: "\u{2518}", foreground: fg, background: bg)

        screen.drawText(headline, column: left + 1 + (inner - headline.count) / 2, row: top + 1,
                        foreground: fg, background: bg)
        screen.drawText(prompt, column: left + 1 + (inner - prompt.count) / 2, row: top + 2,
                        foreground: fg, background: bg)
    }
}
