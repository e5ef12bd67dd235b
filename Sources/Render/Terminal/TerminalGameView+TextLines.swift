// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// The two text rows: the status line on top (rewritten every frame; the
/// damage tracking sends only the characters that changed, typically the
/// tenths of the clock) and the key hints at the bottom (written at layout time).
extension TerminalGameView {
    /// ` Title   12.3 s   caught 2   PAUSED` on the left, led by the size
    /// warning when the maze does not fit, and `sensor: <name>` on the right:
    /// the player is always told which sensor moves the ball. Red while the
    /// caught flash lasts. A notice goes after the figures where it fits
    /// whole, else on lines of its own under the status line
    /// (`drawTextOverMaze`); a size warning of more than one line takes the
    /// status line's place. Returns how many rows under the status line
    /// that text covers.
    func drawStatusLine(_ snapshot: WorldSnapshot, tinted: Bool) -> Int {
        noticeRow = nil
        guard layout.rows > 0 else { return 0 }
        let foreground = GamePalette.statusText
        let background = tinted ? GamePalette.statusCaughtBackground : GamePalette.statusBackground
        screen.fillCells(column: 0, row: 0, width: layout.columns, height: 1, background: background)
        var column = 1
        var text = ByteWriter(textBytes)
        if !layout.fits, let tooSmall {
            guard tooSmallLines.count == 1 else {
                // The size needed and the size now take the status line and the rows under it.
                return noticeBelow(from: tooSmallLines.count) - 1
            }
            column = screen.drawScalars(UnsafeBufferPointer(rebasing: tooSmall[tooSmallLines[0]]), column: tooSmallColumn,
                                        row: 0, foreground: GamePalette.statusWarning, background: background) + 3
        }
        column = screen.drawScalars(UnsafeBufferPointer(title), column: column, row: 0,
                                    foreground: foreground, background: background) + 3
        StatusLineText.figures(snapshot, best: banner.best, hasNotice: notice != nil, into: &text)
        var end = drawText(text, column: column, foreground: foreground, background: background)
        var rowsBelow = 0
        if let notice {
            // The notice matters more than the sensor's name: it may take the whole rest of the line.
            let room = layout.columns - 1 - (end + 3)
            if notice.count <= room {
                screen.drawScalars(UnsafeBufferPointer(notice), column: end + 3, row: 0,
                                   foreground: GamePalette.statusWarning, background: background)
                end += 3 + notice.count
            } else {
                rowsBelow = noticeBelow(from: 1) - 1
            }
        }
        if showsStatistics {
            drawRightAligned(UnsafeMutableBufferPointer(rebasing: statistics[0 ..< statisticsCount]), row: 0, after: end + 3,
                             foreground: foreground, background: background)
        } else {
            // Which sensor and why come first: the screen's part of the label is dropped before
            // the sensor's is cut, and the measured rate shows only where there is room to spare.
            let room = layout.columns - 1 - (end + 3)
            let label = sensorLabel.count <= room ? sensorLabel : UnsafeMutableBufferPointer(rebasing: sensorLabel[0 ..< sensorPartCount])
            text.reset()
            StatusLineText.rate(snapshot, into: &text)
            let rateWidth = text.count + 2
            if text.count > 0, layout.columns - 1 - label.count - rateWidth >= end + 3 {
                let start = layout.columns - 1 - label.count - rateWidth
                screen.drawText(UnsafeBufferPointer(start: text.base, count: text.count), column: start, row: 0,
                                foreground: GamePalette.sensorText, background: background)
            }
            drawRightAligned(label, row: 0, after: end + 3, foreground: GamePalette.sensorText, background: background)
        }
        return rowsBelow
    }

    /// Puts the notice's lines from `row` on (if there is a notice to put
    /// there); returns the first row after them. They stop at the key hints.
    private func noticeBelow(from row: Int) -> Int {
        guard notice != nil, !noticeLines.isEmpty else { return row }
        noticeRow = row
        return min(row + noticeLines.count, layout.footerRow ?? layout.rows)
    }

    /// The rows of text over the maze: a size warning of more than one line
    /// (from the top row), then a notice too long for the status line, each
    /// line on the status line's colours across the whole width.
    func drawTextOverMaze(tinted: Bool) {
        let background = tinted ? GamePalette.statusCaughtBackground : GamePalette.statusBackground
        let last = layout.footerRow ?? layout.rows
        if !layout.fits, let tooSmall, tooSmallLines.count > 1 {
            for (i, line) in tooSmallLines.enumerated() where i < last {
                screen.fillCells(column: 0, row: i, width: layout.columns, height: 1, background: background)
                screen.drawScalars(UnsafeBufferPointer(rebasing: tooSmall[line]), column: tooSmallColumn, row: i,
                                   foreground: GamePalette.statusWarning, background: background)
            }
        }
        guard let notice, let first = noticeRow else { return }
        let column = overlayWidth < layout.columns ? 1 : 0
        for (i, line) in noticeLines.enumerated() where first + i < last {
            screen.fillCells(column: 0, row: first + i, width: layout.columns, height: 1, background: background)
            screen.drawScalars(UnsafeBufferPointer(rebasing: notice[line]), column: column, row: first + i,
                               foreground: GamePalette.statusWarning, background: background)
        }
    }

    /// How wide a line of text over the maze may be: the width less a margin each side, where that leaves room.
    var overlayWidth: Int { layout.columns > 12 ? layout.columns - 2 : layout.columns }

    /// Breaks the notice into lines for this width. Allocates: on a new notice or size.
    func breakNotice() {
        noticeLines = notice.map { WrappedLines.ranges(of: UnsafeBufferPointer($0), width: overlayWidth) } ?? []
    }

    /// The texts that depend on the size: the notice's lines, and, while
    /// the maze does not fit, what size it needs and the size now, in the
    /// longest wording that fits on the fewest rows.
    func layOutTexts() {
        breakNotice()
        tooSmall?.deallocate()
        tooSmall = nil
        tooSmallLines = []
        guard !layout.fits, layout.columns > 0, layout.rows > 0 else { return }
        let need = "\(layout.neededColumns)x\(layout.neededRows)", now = "\(layout.columns)x\(layout.rows)"
        let wordings = ["terminal too small: need \(need), now \(now)", "too small: need \(need), now \(now)",
                        "need \(need), now \(now)"]
        let rowsForIt = max(layout.footerRow ?? layout.rows, 1)
        let widths = layout.columns > 2 ? [layout.columns - 2, layout.columns] : [layout.columns]
        var choice = (text: wordings[wordings.count - 1], width: layout.columns)
        search: for lines in 1 ... rowsForIt {
            for width in widths {
                for wording in wordings where WrappedLines.lines(wording, width: width).count <= lines {
                    choice = (wording, width)
                    break search
                }
            }
        }
        let scalars = SingleWidthText.scalars(choice.text)
        tooSmall = scalars
        tooSmallLines = WrappedLines.ranges(of: UnsafeBufferPointer(scalars), width: choice.width)
        tooSmallColumn = choice.width < layout.columns ? 1 : 0
    }

    /// The key hints, from the left edge; cut with an ellipsis on a narrow terminal.
    func drawFooter() {
        guard let row = layout.footerRow else { return }
        let foreground = GamePalette.footerText, background = GamePalette.footerBackground
        screen.fillCells(column: 0, row: row, width: layout.columns, height: 1, background: background)
        // With --stats the sensor's name is shown here, the figures having its place on top.
        let text = showsStatistics ? sensorLabel : footerForMenu ? footerMenuHints : footerHints
        let margin = text.count + 2 <= layout.columns ? 1 : 0
        drawClipped(text, column: margin, row: row, room: layout.columns - margin,
                    foreground: showsStatistics ? GamePalette.sensorText : foreground, background: background)
    }

    /// Draws `text` ending one column before the right edge, but not left of
    /// `leftmost`; a text that does not fit is cut with an ellipsis.
    private func drawRightAligned(_ text: UnsafeMutableBufferPointer<Unicode.Scalar>, row: Int, after leftmost: Int,
                                  foreground: RGB, background: RGB) {
        let room = layout.columns - 1 - leftmost
        let start = max(leftmost, layout.columns - 1 - text.count)
        drawClipped(text, column: start, row: row, room: room, foreground: foreground, background: background)
    }

    /// Draws at most `room` columns of `text`, the last of them an ellipsis when it is cut.
    private func drawClipped(_ text: UnsafeMutableBufferPointer<Unicode.Scalar>, column: Int, row: Int, room: Int,
                             foreground: RGB, background: RGB) {
        if room >= text.count {
            screen.drawScalars(UnsafeBufferPointer(text), column: column, row: row,
                               foreground: foreground, background: background)
        } else if room >= 2 {
            let end = screen.drawScalars(UnsafeBufferPointer(rebasing: text[0 ..< room - 1]),
                                         column: column, row: row, foreground: foreground, background: background)
            screen.setCell(column: end, row: row, scalar: "\u{2026}", foreground: foreground, background: background)
        }
    }

    @discardableResult
    private func drawText(_ text: ByteWriter, column: Int, foreground: RGB, background: RGB) -> Int {
        screen.drawText(UnsafeBufferPointer(start: text.base, count: text.count), column: column, row: 0,
                        foreground: foreground, background: background)
    }
}
