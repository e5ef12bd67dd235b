// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
@testable import Render

/// Just enough of a terminal to read back what the encoder sends: UTF-8 text
/// with autowrap, CUP, CUF, ED 2, SGR 0/38/48 (truecolour and 256-colour),
/// and private modes (recorded, otherwise ignored).
struct VTInterpreter {
    let columns: Int
    let rows: Int
    private(set) var cells: [TerminalCell]
    private(set) var cursorColumn = 0
    private(set) var cursorRow = 0
    private var pendingWrap = false
    private(set) var foreground = RGB(255, 255, 255)
    private(set) var background = RGB(0, 0, 0)
    /// `?2026h` etc., in the order seen.
    private(set) var privateModes: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: .blank, count: columns * rows)
    }

    subscript(column: Int, row: Int) -> TerminalCell { cells[row * columns + column] }

    /// The characters of one row as a string.
    func text(row: Int) -> String {
        var s = ""
        for c in 0 ..< columns { s.unicodeScalars.append(self[c, row].scalar) }
        return s
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) { feed(Array(bytes)) }

    mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                precondition(i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "["), "only CSI sequences are expected")
                var j = i + 2
                var params = ""
                while !(0x40 ... 0x7E).contains(bytes[j]) {
                    params.unicodeScalars.append(Unicode.Scalar(bytes[j]))
                    j += 1
                }
                control(params, final: bytes[j])
                i = j + 1
                continue
            }
            // UTF-8 decode one scalar.
            let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            var value = length == 1 ? UInt32(b) : UInt32(b) & (0x7F >> length)
            for k in 1 ..< length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
            put(Unicode.Scalar(value)!)
            i += length
        }
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        if pendingWrap {
            pendingWrap = false
            cursorColumn = 0
            cursorRow = min(cursorRow + 1, rows - 1)
        }
        cells[cursorRow * columns + cursorColumn] = TerminalCell(scalar: scalar, foreground: foreground, background: background)
        if cursorColumn == columns - 1 { pendingWrap = true } else { cursorColumn += 1 }
    }

    private mutating func control(_ params: String, final: UInt8) {
        if params.hasPrefix("?") {
            privateModes.append(params + String(UnicodeScalar(final)))
            return
        }
        let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ k: Int, default d: Int) -> Int { k < numbers.count ? (numbers[k] ?? d) : d }
        switch final {
        case UInt8(ascii: "H"):
            pendingWrap = false
            cursorRow = min(number(0, default: 1), rows) - 1
            cursorColumn = min(number(1, default: 1), columns) - 1
        case UInt8(ascii: "C"):
            pendingWrap = false
            cursorColumn = min(cursorColumn + number(0, default: 1), columns - 1)
        case UInt8(ascii: "J"):
            precondition(number(0, default: 0) == 2, "only ED 2 is expected")
            cells = Array(repeating: TerminalCell(scalar: " ", foreground: foreground, background: background),
                          count: columns * rows)
        case UInt8(ascii: "m"):
            sgr(numbers.map { $0 ?? 0 })
        default:
            preconditionFailure("unexpected CSI \(params)\(UnicodeScalar(final))")
        }
    }

    private mutating func sgr(_ codes: [Int]) {
        var k = 0
        while k < codes.count {
            let code = codes[k]
            switch code {
            case 0:
                foreground = RGB(255, 255, 255)
                background = RGB(0, 0, 0)
                k += 1
            case 38, 48:
                let color: RGB
                if codes[k + 1] == 2 {
                    color = RGB(UInt8(codes[k + 2]), UInt8(codes[k + 3]), UInt8(codes[k + 4]))
                    k += 5
                } else {
                    precondition(codes[k + 1] == 5, "SGR 38/48 must be followed by 2 or 5")
                    color = XtermPalette.color(of: UInt8(codes[k + 2]))
                    k += 3
                }
                if code == 38 { foreground = color } else { background = color }
            default:
                preconditionFailure("unexpected SGR \(code)")
            }
        }
    }
}

/// The encoder may send ▀ as ▄ with the colours swapped (same picture, fewer
/// colour codes); this turns such a cell back into the ▀ form it was composed as.
func normalized(_ cell: TerminalCell) -> TerminalCell {
    guard cell.scalar == "\u{2584}" else { return cell }
    return TerminalCell(scalar: "\u{2580}", foreground: cell.background, background: cell.foreground)
}
