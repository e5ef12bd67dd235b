import Game

/// The static part of the framebuffer picture: the margin, the floor (a
/// faint checker, so speed reads), walls lit from the top left where they
/// meet the floor, and exits as rings on green. Painted once per layout.
enum FramebufferMaze {
    static func paint(_ level: Level, layout: FramebufferLayout, into canvas: Canvas) {
        canvas.fill(GamePalette.margin)
        let s = layout.cell
        // Bevels are about a tenth of a cell, at least a pixel once cells are big enough to show them.
        let edge = s >= 6 ? max(1, s / 10) : 0
        for row in 0 ..< level.height {
            for column in 0 ..< level.width {
                let x = layout.originX + column * s, y = layout.originY + row * s
                switch level.cell(column, row) {
                case .floor:
                    let shade = (row + column) % 2 == 0 ? GamePalette.floor : GamePalette.floor.blended(towards: GamePalette.wall, fraction: 0.06)
                    canvas.fillRect(x: x, y: y, width: s, height: s, color: shade)
                case .wall:
                    canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.wall)
                    guard edge > 0 else { break }
                    if !level.isWall(column, row - 1) { canvas.fillRect(x: x, y: y, width: s, height: edge, color: GamePalette.wallLight) }
                    if !level.isWall(column - 1, row) { canvas.fillRect(x: x, y: y, width: edge, height: s, color: GamePalette.wallLight) }
                    if !level.isWall(column, row + 1) { canvas.fillRect(x: x, y: y + s - edge, width: s, height: edge, color: GamePalette.wallShadow) }
                    if !level.isWall(column + 1, row) { canvas.fillRect(x: x + s - edge, y: y, width: edge, height: s, color: GamePalette.wallShadow) }
                case .exit:
                    canvas.fillRect(x: x, y: y, width: s, height: s, color: GamePalette.exit)
                    guard s >= 5 else { break }
                    let ring = s / 5
                    canvas.fillRect(x: x + ring, y: y + ring, width: s - 2 * ring, height: s - 2 * ring, color: GamePalette.exitRing)
                    canvas.fillRect(x: x + 2 * ring, y: y + 2 * ring, width: s - 4 * ring, height: s - 4 * ring, color: GamePalette.exitCentre)
                }
            }
        }
    }
}
