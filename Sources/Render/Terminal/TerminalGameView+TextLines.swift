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
    /// caught flash lasts.
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
        StatusLineText.figures(snapshot, best: banner.best, hasNotice: notice != nil, into: &text)
        var end = drawText(text, column: column, foreground: foreground, background: background)
        if let notice {
            // The notice matters more than the sensor's name: it may take the whole rest of the line.
            let room = layout.columns - 1 - (end + 3)
            drawClipped(notice, column: end + 3, row: 0, room: room, foreground: GamePalette.statusWarning, background: background)
            end += 3 + min(notice.count, max(room, 0))
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
