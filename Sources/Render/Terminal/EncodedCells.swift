// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What the last `CellGrid.encodeFrame()` produced, so claims about
/// damage tracking ("a moving ball costs ~100 bytes a frame") can be checked.
public struct EncodedCells: Sendable, Equatable {
    /// Bytes in the encoded frame, synchronized-output wrapper included.
    public var bytes: Int
    /// Cells written because they differ from what the terminal shows.
    public var cellsEmitted: Int
    /// Cells left alone because the terminal already shows them.
    public var cellsSkipped: Int

    public init(bytes: Int = 0, cellsEmitted: Int = 0, cellsSkipped: Int = 0) {
        self.bytes = bytes
        self.cellsEmitted = cellsEmitted
        self.cellsSkipped = cellsSkipped
    }
}
