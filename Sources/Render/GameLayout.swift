// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Where things go on a terminal of a given size: the status line on row 0,
/// the key hints on the last row, and the maze as half-block pixels in the
/// rows between, scaled by the largest whole factor that fits and centred.
///
/// Pure arithmetic, recomputed only at init and resize.
struct GameLayout: Equatable, Sendable {
    var columns: Int
    var rows: Int
    /// Screen row of the maze area's first cell row.
    var mazeRow: Int
    /// Cell rows between the status line and the footer.
    var mazeRows: Int
    /// The maze area in pixels: a column is one pixel wide, a row two high.
    var pixelWidth: Int { columns }
    var pixelHeight: Int { mazeRows * 2 }
    /// Pixels per maze cell.
    var scale: Int
    /// Pixel position of the maze's top-left corner in the maze area.
    var originX: Int
    var originY: Int
    /// Whether the whole maze is visible; if not, it is drawn from its
    /// top-left corner at scale 1 and the status line says what size is needed.
    var fits: Bool
    /// The smallest terminal that shows the whole maze.
    var neededColumns: Int
    var neededRows: Int
    /// Row of the key hints, or nil when the terminal has a single row.
    var footerRow: Int? { rows >= 2 ? rows - 1 : nil }

    init(levelWidth: Int, levelHeight: Int, columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        mazeRow = 1
        mazeRows = max(self.rows - 2, 0)
        neededColumns = levelWidth
        neededRows = (levelHeight + 1) / 2 + 2

        let pixelWidth = self.columns, pixelHeight = mazeRows * 2
        let fitting = levelWidth > 0 && levelHeight > 0
            ? min(pixelWidth / levelWidth, pixelHeight / levelHeight) : 0
        fits = fitting >= 1
        scale = max(fitting, 1)
        // Centred along an axis where the maze fits, top/left aligned where it does not.
        originX = max((pixelWidth - levelWidth * scale) / 2, 0)
        originY = max((pixelHeight - levelHeight * scale) / 2, 0)
    }
}
