// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// Where things go on a framebuffer of a given size: a status bar on top, a
/// hint bar at the bottom, and the maze between them, each cell a whole
/// number of pixels, as large as fits, centred.
///
/// Pure arithmetic, from the screen size and the level's size only.
struct PixelLayout: Equatable, Sendable {
    let width: Int
    let height: Int
    /// Font pixels per screen pixel side: 1 up to 540 rows, then one more per 360 rows.
    let textScale: Int
    /// Height of the status bar and of the hint bar.
    let barHeight: Int
    /// Pixels per maze cell.
    let cell: Int
    /// The maze's top-left pixel.
    let originX: Int
    let originY: Int

    /// Nil when the screen cannot show every cell at one pixel or more.
    init?(levelWidth: Int, levelHeight: Int, width: Int, height: Int) {
        self.width = width
        self.height = height
        textScale = max(1, height / 360)
        barHeight = (BitmapFont.glyphHeight + 4) * textScale
        let areaHeight = height - 2 * barHeight
        guard levelWidth > 0, levelHeight > 0, areaHeight > 0 else { return nil }
        cell = min(width / levelWidth, areaHeight / levelHeight)
        guard cell >= 1 else { return nil }
        originX = (width - levelWidth * cell) / 2
        originY = barHeight + (areaHeight - levelHeight * cell) / 2
    }

    /// The smallest screen that shows `level` at one pixel per cell with bars at scale 1.
    static func minimumSize(levelWidth: Int, levelHeight: Int) -> (width: Int, height: Int) {
        (max(levelWidth, 1), levelHeight + 2 * (BitmapFont.glyphHeight + 4))
    }

    /// A maze point (cells) in screen pixels (fractional).
    func pixel(_ p: Point) -> (x: Double, y: Double) {
        (Double(originX) + p.x * Double(cell), Double(originY) + p.y * Double(cell))
    }

    var statusBar: PixelRect { PixelRect(x: 0, y: 0, width: width, height: barHeight) }
    var hintBar: PixelRect { PixelRect(x: 0, y: height - barHeight, width: width, height: barHeight) }
    /// Where a bar's text starts: two font pixels in from the left, centred vertically.
    var textInset: Int { 2 * textScale }
}
