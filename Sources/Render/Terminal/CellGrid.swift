// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The damage-tracked cell screen: a frame is composed into a grid of cells,
/// then `encodeFrame()` turns what the terminal shows into it with as few
/// bytes as it can (see `CellGrid+Encoding.swift`).
///
/// Two grids are kept: `cells`, being composed, and `shown`, what the terminal
/// displays after the last encoded frame. Both, and the output buffer, are
/// allocated at init and resize only; composing and encoding a frame never
/// touch the heap. Composition persists between frames, so a caller redraws
/// only what moved.
public final class CellGrid {
    public private(set) var columns: Int
    public private(set) var rows: Int
    public let colorMode: ColorMode
    public internal(set) var lastEncoded = EncodedCells()

    /// The frame being composed, row-major.
    var cells: UnsafeMutableBufferPointer<TerminalCell>
    /// What the terminal shows, row-major; meaningless while `needsFullRedraw`.
    var shown: UnsafeMutableBufferPointer<TerminalCell>
    /// Rows written since the last encoded frame: the encoder compares only
    /// those, so a frame in which little was drawn costs little to encode.
    var touchedRows: UnsafeMutableBufferPointer<Bool>
    /// Room for the worst-case frame: every cell with a cursor move and both colours.
    var output: UnsafeMutableBufferPointer<UInt8>
    var writer: ByteWriter

    /// Set by init, resize and `forceFullRedraw()`: the next frame clears the
    /// screen and draws every cell.
    var needsFullRedraw = true
    /// Where the terminal's cursor is after the last frame; -1 when unknown
    /// (after a full clear, or in the pending-wrap state past the last column).
    var cursorColumn = -1
    var cursorRow = -1
    /// Colour keys (see `colorKey`) of the last SGR emitted; `unknownColor` when not known.
    var penForeground = CellGrid.unknownColor
    var penBackground = CellGrid.unknownColor
    static let unknownColor: UInt32 = .max

    /// Bytes a single cell can cost at most: a CUP with two 5-digit numbers
    /// (14), a truecolour SGR for both colours (36) and a 4-byte scalar.
    static let worstBytesPerCell = 64
    /// Synchronized-output wrapper, SGR reset and clear.
    static let frameOverhead = 64

    public init(columns: Int, rows: Int, colorMode: ColorMode) {
        let columns = max(columns, 0), rows = max(rows, 0)
        self.columns = columns
        self.rows = rows
        self.colorMode = colorMode
        let count = max(columns * rows, 1)
        cells = .allocate(capacity: count)
        cells.initialize(repeating: .blank)
        shown = .allocate(capacity: count)
        shown.initialize(repeating: .blank)
        touchedRows = .allocate(capacity: max(rows, 1))
        touchedRows.initialize(repeating: true)
        output = .allocate(capacity: count * Self.worstBytesPerCell + Self.frameOverhead)
        writer = ByteWriter(output)
    }

    deinit {
        cells.deallocate()
        shown.deallocate()
        touchedRows.deallocate()
        output.deallocate()
    }

    /// Changes the size. The composed frame becomes blank and the next frame
    /// clears the terminal and draws everything, since after a resize the
    /// terminal's content is whatever its reflow made of it.
    public func resize(columns: Int, rows: Int) {
        let columns = max(columns, 0), rows = max(rows, 0)
        let count = max(columns * rows, 1)
        if count > cells.count {
            cells.deallocate()
            shown.deallocate()
            output.deallocate()
            cells = .allocate(capacity: count)
            shown = .allocate(capacity: count)
            output = .allocate(capacity: count * Self.worstBytesPerCell + Self.frameOverhead)
            writer = ByteWriter(output)
        }
        if max(rows, 1) > touchedRows.count {
            touchedRows.deallocate()
            touchedRows = .allocate(capacity: max(rows, 1))
        }
        self.columns = columns
        self.rows = rows
        cells.update(repeating: .blank)
        shown.update(repeating: .blank)
        touchedRows.update(repeating: true)
        forceFullRedraw()
    }

    /// Makes the next frame a full redraw; for when the terminal's content
    /// can no longer be trusted (a resize, Ctrl-L, coming back from SIGTSTP).
    public func forceFullRedraw() {
        needsFullRedraw = true
        cursorColumn = -1
        cursorRow = -1
        penForeground = Self.unknownColor
        penBackground = Self.unknownColor
    }

    /// The composed cell at (column, row), which must be on the screen.
    public subscript(column: Int, row: Int) -> TerminalCell {
        precondition(column >= 0 && row >= 0 && column < columns && row < rows, "cell outside the screen")
        return cells[row &* columns &+ column]
    }

    /// Puts one scalar in a cell; cells off the screen are ignored. The scalar
    /// must be single-width; control characters become `?` so that nothing
    /// composed can move the terminal's cursor behind the encoder's back.
    @inline(__always)
    public func setCell(column: Int, row: Int, scalar: Unicode.Scalar, foreground: RGB, background: RGB) {
        guard column >= 0, row >= 0, column < columns, row < rows else { return }
        let v = scalar.value
        let safe: Unicode.Scalar = (v < 0x20 || (v >= 0x7F && v < 0xA0)) ? "?" : scalar
        cells[row &* columns &+ column] = TerminalCell(scalar: safe, foreground: foreground, background: background)
        touchedRows[row] = true
    }

    /// Fills a rectangle of cells with spaces of one background; clipped.
    public func fillCells(column: Int, row: Int, width: Int, height: Int, background: RGB) {
        let c0 = max(column, 0), r0 = max(row, 0)
        let c1 = min(column + width, columns), r1 = min(row + height, rows)
        guard c0 < c1, r0 < r1 else { return }
        let cell = TerminalCell(scalar: " ", foreground: background, background: background)
        for r in r0 ..< r1 {
            let start = r &* columns
            UnsafeMutableBufferPointer(rebasing: cells[start + c0 ..< start + c1]).update(repeating: cell)
            touchedRows[r] = true
        }
    }

    /// Writes ASCII text from `column` on, clipped to the screen; bytes that
    /// are not printable ASCII show as `?`. Returns the column after the text.
    @discardableResult
    public func drawText(_ text: UnsafeBufferPointer<UInt8>, column: Int, row: Int,
                         foreground: RGB, background: RGB) -> Int {
        var c = column
        for byte in text {
            let printable = byte >= 0x20 && byte < 0x7F
            setCell(column: c, row: row, scalar: Unicode.Scalar(printable ? byte : UInt8(ascii: "?")),
                    foreground: foreground, background: background)
            c &+= 1
        }
        return c
    }

    /// `drawText` for a literal.
    @discardableResult
    public func drawText(_ text: StaticString, column: Int, row: Int,
                         foreground: RGB, background: RGB) -> Int {
        drawText(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount),
                 column: column, row: row, foreground: foreground, background: background)
    }

    /// Writes single-width scalars from `column` on, clipped; for text known
    /// only at run time (a level title, a sensor name) prepared once.
    @discardableResult
    public func drawScalars(_ text: UnsafeBufferPointer<Unicode.Scalar>, column: Int, row: Int,
                            foreground: RGB, background: RGB) -> Int {
        var c = column
        for scalar in text {
            setCell(column: c, row: row, scalar: scalar, foreground: foreground, background: background)
            c &+= 1
        }
        return c
    }
}
