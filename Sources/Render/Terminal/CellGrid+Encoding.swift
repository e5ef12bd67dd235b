// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Turning the composed grid into terminal bytes, the notcurses way: keep the
/// frame the terminal shows, send only cells that differ, skip colour codes
/// that are already in effect, pick the shorter cursor move, and wrap it all
/// in synchronized output so the terminal paints the frame at once.
extension CellGrid {
    static let upperHalfBlock: Unicode.Scalar = "\u{2580}"
    static let lowerHalfBlock: Unicode.Scalar = "\u{2584}"

    /// The bytes that turn the previously shown frame into the composed one.
    /// Afterwards the composed frame counts as shown. The buffer belongs to
    /// the screen and is valid until the next `encodeFrame()` or `resize`.
    ///
    /// Even a frame with no changes carries the synchronized-output wrapper
    /// (16 bytes); a caller may check `lastEncoded.cellsEmitted == 0` and
    /// skip the write.
    public func encodeFrame() -> UnsafeRawBufferPointer {
        writer.reset()
        writer.append("\u{1B}[?2026h")
        let full = needsFullRedraw
        if full {
            writer.append("\u{1B}[0m\u{1B}[2J")
            forceFullRedraw()
            needsFullRedraw = false
        }
        var emitted = 0, skipped = 0
        var index = 0
        for row in 0 ..< rows {
            // A row nothing wrote since the last frame still shows what it showed.
            guard full || touchedRows[row] else {
                skipped &+= columns
                index &+= columns
                continue
            }
            touchedRows[row] = false
            for column in 0 ..< columns {
                defer { index &+= 1 }
                let cell = cells[index]
                if !full && looksTheSame(cell, shown[index]) {
                    skipped &+= 1
                    continue
                }
                emitted &+= 1
                moveCursor(column: column, row: row)
                emit(cell)
                shown[index] = cell
                cursorRow = row
                cursorColumn = column &+ 1
                if cursorColumn >= columns {
                    // Pending-wrap state: terminals disagree on where the cursor is.
                    cursorColumn = -1
                    cursorRow = -1
                }
            }
        }
        writer.append("\u{1B}[?2026l")
        lastEncoded = EncodedCells(bytes: writer.count, cellsEmitted: emitted, cellsSkipped: skipped)
        return writer.bytes
    }

    /// The colour as the terminal will see it: 24 bits, or the palette index,
    /// so two colours that map to the same palette entry count as unchanged.
    @inline(__always)
    func colorKey(_ color: RGB) -> UInt32 {
        switch colorMode {
        case .truecolor: UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
        case .palette256: UInt32(XtermPalette.index(of: color))
        }
    }

    /// Whether the terminal would show `a` and `b` identically.
    @inline(__always)
    func looksTheSame(_ a: TerminalCell, _ b: TerminalCell) -> Bool {
        if a == b { return true }
        guard a.scalar == b.scalar, colorKey(a.background) == colorKey(b.background) else { return false }
        return a.isBlank || colorKey(a.foreground) == colorKey(b.foreground)
    }

    /// Puts the cursor on (column, row) unless it is there already, by the
    /// shorter of CUF (same row, forwards) and CUP.
    func moveCursor(column: Int, row: Int) {
        if cursorRow == row && cursorColumn == column { return }
        let cupLength = row == 0 && column == 0 ? 3
            : column == 0 ? 3 + Self.digitCount(row + 1)
            : 4 + Self.digitCount(row + 1) + Self.digitCount(column + 1)
        if cursorRow == row && cursorColumn >= 0 && column > cursorColumn {
            let distance = column - cursorColumn
            let cufLength = distance == 1 ? 3 : 3 + Self.digitCount(distance)
            if cufLength < cupLength {
                writer.append("\u{1B}[")
                if distance > 1 { writer.appendDecimal(distance) }
                writer.append(UInt8(ascii: "C"))
                return
            }
        }
        writer.append("\u{1B}[")
        if row != 0 || column != 0 {
            writer.appendDecimal(row + 1)
            if column != 0 {
                writer.append(UInt8(ascii: ";"))
                writer.appendDecimal(column + 1)
            }
        }
        writer.append(UInt8(ascii: "H"))
    }

    /// Emits one cell at the cursor: the colour codes that are not in effect
    /// yet, then the scalar. A blank needs only its background; an upper half
    /// block may be sent as the lower half block with the colours swapped when
    /// that matches the pen better (same picture, fewer bytes).
    func emit(_ cell: TerminalCell) {
        var scalar = cell.scalar
        var foreground = colorKey(cell.foreground)
        let background: UInt32
        if cell.isBlank {
            background = colorKey(cell.background)
            foreground = penForeground
        } else if scalar == Self.upperHalfBlock {
            let top = foreground, bottom = colorKey(cell.background)
            let upperCost = (penForeground == top ? 0 : 1) + (penBackground == bottom ? 0 : 1)
            let lowerCost = (penForeground == bottom ? 0 : 1) + (penBackground == top ? 0 : 1)
            if lowerCost < upperCost {
                scalar = Self.lowerHalfBlock
                foreground = bottom
                background = top
            } else {
                background = bottom
            }
        } else {
            background = colorKey(cell.background)
        }
        setPen(foreground: foreground, background: background)
        writer.appendUTF8(scalar)
    }

    /// One SGR sequence for whichever of the two colours changed, if any.
    func setPen(foreground: UInt32, background: UInt32) {
        let changeForeground = foreground != penForeground
        let changeBackground = background != penBackground
        guard changeForeground || changeBackground else { return }
        writer.append("\u{1B}[")
        if changeForeground {
            writer.append("38")
            appendColor(foreground)
            penForeground = foreground
        }
        if changeBackground {
            if changeForeground { writer.append(UInt8(ascii: ";")) }
            writer.append("48")
            appendColor(background)
            penBackground = background
        }
        writer.append(UInt8(ascii: "m"))
    }

    /// The SGR colour parameters after 38/48: `;2;r;g;b` or `;5;n`.
    private func appendColor(_ key: UInt32) {
        switch colorMode {
        case .truecolor:
            writer.append(";2;")
            writer.appendDecimal(Int(key >> 16 & 0xFF))
            writer.append(UInt8(ascii: ";"))
            writer.appendDecimal(Int(key >> 8 & 0xFF))
            writer.append(UInt8(ascii: ";"))
            writer.appendDecimal(Int(key & 0xFF))
        case .palette256:
            writer.append(";5;")
            writer.appendDecimal(Int(key))
        }
    }

    @inline(__always)
    static func digitCount(_ value: Int) -> Int {
        var n = 1, v = value
        while v >= 10 { v /= 10; n &+= 1 }
        return n
    }
}
