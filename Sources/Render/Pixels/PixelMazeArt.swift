// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// The static part of the framebuffer picture: the margin, the floor (a
/// faint checker, so speed reads), walls lit from the top left where they
/// meet the floor, and exits as rings on green. Painted once per layout.
enum PixelMazeArt {
    static func paint(_ level: Level, layout: PixelLayout, pellets: PelletSet, exitOpen: Bool, into canvas: Canvas) {
        canvas.fill(GamePalette.margin)
        for row in 0 ..< level.height {
            for column in 0 ..< level.width {
                paintCell(level, column: column, row: row, layout: layout, pellets: pellets, exitOpen: exitOpen, into: canvas)
            }
        }
    }

    /// One cell; returns its rectangle (how an eaten pellet is painted out).
    @discardableResult
    static func paintCell(_ level: Level, column: Int, row: Int, layout: PixelLayout, pellets: PelletSet, exitOpen: Bool,
                          into canvas: Canvas) -> PixelRect {
        let s = layout.cell
        // Bevels are about a tenth of a cell, at least a pixel once cells are big enough to show them.
        let edge = s >= 6 ? max(1, s / 10) : 0
        let x = layout.originX + column * s, y = layout.originY + row * s
        switch level.cell(column, row) {
        case .floor:
            let shade = (row + column) % 2 == 0 ? GamePalette.floor : GamePalette.floor.blended(towards: GamePalette.wall, fraction: 0.06)
            canvas.fillRect(x: x, y: y, width: s, height: s, color: shade)
            if let pellet = level.pellet(column, row), pellets.contains(pellet) {
                if s >= 4 {
                    _ = canvas.fillCircle(centerX: Double(x) + Double(s) / 2, centerY: Double(y) + Double(s) / 2,
                                          radius: max(Double(s) * 0.14, 1), color: GamePalette.pellet)
                } else {
                    canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.pellet)
                }
            }
        case .wall:
            canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.wall)
            guard edge > 0 else { break }
            if !level.isWall(column, row - 1) { canvas.fillRect(x: x, y: y, width: s, height: edge, color: GamePalette.wallLight) }
            if !level.isWall(column - 1, row) { canvas.fillRect(x: x, y: y, width: edge, height: s, color: GamePalette.wallLight) }
            if !level.isWall(column, row + 1) { canvas.fillRect(x: x, y: y + s - edge, width: s, height: edge, color: GamePalette.wallShadow) }
            if !level.isWall(column + 1, row) { canvas.fillRect(x: x + s - edge, y: y, width: edge, height: s, color: GamePalette.wallShadow) }
        case .exit:
            guard exitOpen else {
                // Shut: grey green, and barred once there is room for bars.
                canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.exitLocked)
                guard s >= 5 else { break }
                let bar = max(1, s / 10)
                for i in 1 ... 3 { canvas.fillRect(x: x + i * s / 4 - bar / 2, y: y, width: bar, height: s, color: GamePalette.wall) }
                break
            }
            canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.exit)
            guard s >= 5 else { break }
            let ring = s / 5
            canvas.fillRect(x: x + ring, y: y + ring, width: s - 2 * ring, height: s - 2 * ring, color: GamePalette.exitRing)
            canvas.fillRect(x: x + 2 * ring, y: y + 2 * ring, width: s - 4 * ring, height: s - 4 * ring, color: GamePalette.exitCentre)
        }
        return PixelRect(x: x, y: y, width: s, height: s)
    }
}
