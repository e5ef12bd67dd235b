// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// The static part of the game picture: walls, floor and exits, painted once
/// per layout, so a frame only repaints where the ball and ghosts move.
enum MazePicture {
    /// Paints the maze area: margin everywhere, then each maze cell as a
    /// `scale`×`scale` square at the layout's origin (clipped when the
    /// terminal is too small).
    static func paint(_ level: Level, layout: GameLayout, pellets: PelletSet, exitOpen: Bool, into canvas: Canvas) {
        canvas.fill(GamePalette.margin)
        let s = layout.scale
        for row in 0 ..< level.height {
            for column in 0 ..< level.width {
                let color: RGB = switch level.cell(column, row) {
                case .wall: GamePalette.wall
                case .floor: GamePalette.floor
                case .exit: exitOpen ? GamePalette.exit : GamePalette.exitLocked
                }
                let x = layout.originX + column * s, y = layout.originY + row * s
                canvas.fillRect(x: x, y: y, width: s, height: s, color: color)
                if let pellet = level.pellet(column, row), pellets.contains(pellet) {
                    // A dot a third of the cell, at least a pixel: at scale 1 the cell itself.
                    let dot = max(1, s / 3)
                    canvas.fillRect(x: x + (s - dot) / 2, y: y + (s - dot) / 2, width: dot, height: dot, color: GamePalette.pellet)
                }
            }
        }
    }
}
