// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore

/// The far layer behind the maze, as the tutorial's background: a field of
/// faint stars that shifts opposite to the tilt, a few pixels at most, so
/// the maze seems to float above it. Drawn where the display leaves room
/// around the maze; repainted only when its whole-pixel offset changes.
enum ParallaxLayer {
    /// The offset for `gravity` (board frame, m/s²), at most `reach` pixels each way: a
    /// right edge lowered moves the stars left, a top edge lowered moves them down.
    static func offset(_ gravity: Vector3, reach: Int) -> (x: Int, y: Int) {
        let g = 9.80665
        func shift(_ v: Double) -> Int { Int((min(max(v / g, -1), 1) * Double(reach)).rounded()) }
        return (shift(-gravity.x), shift(gravity.y))
    }

    /// Paints the layer over `rect` of `canvas` at `offset`: one star in each
    /// `spacing`-pixel tile, placed and lit by a hash of the tile, so the
    /// field is the same wherever it is drawn from. Star by star, not pixel
    /// by pixel: a fill, then a pixel per tile. `tint` blends it all towards
    /// the caught flash's red (the tinted picture is kept beside the plain one).
    static func paint(_ rect: PixelRect, offset: (x: Int, y: Int), spacing: Int, tint: Double = 0, into canvas: Canvas) {
        let x0 = max(rect.x, 0), y0 = max(rect.y, 0)
        let x1 = min(rect.x + rect.width, canvas.width), y1 = min(rect.y + rect.height, canvas.height)
        guard x0 < x1, y0 < y1, spacing > 0 else { return }
        func tinted(_ c: RGB) -> RGB { tint > 0 ? c.blended(towards: GamePalette.caughtTint, fraction: tint) : c }
        canvas.fillRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0, color: tinted(GamePalette.margin))
        func tile(_ v: Int) -> Int { v >= 0 ? v / spacing : (v + 1) / spacing - 1 }
        for row in tile(y0 - offset.y) ... tile(y1 - 1 - offset.y) {
            for column in tile(x0 - offset.x) ... tile(x1 - 1 - offset.x) {
                let h = hash(column, row)
                // Two stars in three: a field, not a grid.
                guard (h >> 16) % 3 != 0 else { continue }
                let x = column * spacing + Int((h >> 8) % UInt32(spacing)) + offset.x
                let y = row * spacing + Int(h % UInt32(spacing)) + offset.y
                guard x >= x0, x < x1, y >= y0, y < y1 else { continue }
                let light = Double((h >> 20) % 64) / 63
                canvas[x, y] = tinted(GamePalette.parallax.blended(towards: GamePalette.parallaxBright, fraction: light))
            }
        }
    }

    @inline(__always)
    private static func hash(_ a: Int, _ b: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: a &* 0x27D4_EB2D) ^ UInt32(truncatingIfNeeded: b &* 0x1656_67B1)
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 12
        return h
    }

    /// The parts of `area` outside `maze`: above, below, left and right of it (some may be empty).
    static func margins(of area: PixelRect, around maze: PixelRect) -> [PixelRect] {
        let mazeBottom = maze.y + maze.height, mazeRight = maze.x + maze.width
        let areaBottom = area.y + area.height, areaRight = area.x + area.width
        return [
            PixelRect(x: area.x, y: area.y, width: area.width, height: max(maze.y - area.y, 0)),
            PixelRect(x: area.x, y: mazeBottom, width: area.width, height: max(areaBottom - mazeBottom, 0)),
            PixelRect(x: area.x, y: maze.y, width: max(maze.x - area.x, 0), height: maze.height),
            PixelRect(x: mazeRight, y: maze.y, width: max(areaRight - mazeRight, 0), height: maze.height),
        ].filter { $0.width > 0 && $0.height > 0 }
    }
}
