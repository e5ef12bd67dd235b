// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// What the Sense HAT's 8×8 LED matrix shows: the ball's neighbourhood, one
/// LED per maze cell. Walls dim, floor dark, pellets a faint amber, the exit
/// green (darker while shut), ghosts red, the ball bright; no LED above about half brightness, so it can be looked at.
public enum SenseHatView {
    public static let size = 8

    public static let wall = RGB(10, 14, 46)
    public static let floor = RGB(0, 0, 0)
    public static let exit = RGB(0, 96, 16)
    public static let ghost = RGB(128, 0, 0)
    public static let ball = RGB(120, 120, 110)
    public static let pellet = RGB(40, 20, 0)
    public static let exitShut = RGB(8, 24, 8)

    /// The cell shown at the matrix's top-left: the ball about in the middle,
    /// the window kept inside the maze where it is at least 8 cells wide (or high).
    public static func origin(ball: Point, level: Level) -> (column: Int, row: Int) {
        func axis(_ position: Double, _ extent: Int) -> Int {
            let wanted = Int(position.rounded(.down)) - size / 2 + 1
            return extent >= size ? min(max(wanted, 0), extent - size) : (extent - size) / 2
        }
        return (axis(ball.x, level.width), axis(ball.y, level.height))
    }

    /// Paints the 8×8 view of `snapshot` into `canvas` (8×8).
    public static func paint(_ snapshot: WorldSnapshot, level: Level, into canvas: Canvas) {
        precondition(canvas.width == size && canvas.height == size, "the matrix is 8×8")
        let (column0, row0) = origin(ball: snapshot.ball, level: level)
        for y in 0 ..< size {
            for x in 0 ..< size {
                let column = column0 + x, row = row0 + y
                let inside = column >= 0 && row >= 0 && column < level.width && row < level.height
                canvas[x, y] = switch inside ? level.cell(column, row) : .wall {
                case .wall: inside ? wall : floor
                case .floor: level.pellet(column, row).map { snapshot.pellets.contains($0) ? pellet : floor } ?? floor
                case .exit: snapshot.exitOpen ? exit : exitShut
                }
            }
        }
        func led(_ p: Point) -> (Int, Int)? {
            let x = Int(p.x.rounded(.down)) - column0, y = Int(p.y.rounded(.down)) - row0
            return x >= 0 && y >= 0 && x < size && y < size ? (x, y) : nil
        }
        for g in 0 ..< min(max(snapshot.ghostCount, 0), Level.maxGhosts) {
            if let (x, y) = led(snapshot.ghosts[g]) { canvas[x, y] = ghost }
        }
        if let (x, y) = led(snapshot.ball) { canvas[x, y] = ball }
    }
}

extension SenseHatView {
    /// The brightest a colour fill may be on the matrix: about half, as the maze view.
    static let fillLimit = 128.0

    /// A panel on the matrix: the arena's colour (dimmed to at most half
    /// brightness) with the test square as the one bright LED where it is.
    public static func paint(_ panel: Panel, into canvas: Canvas) {
        let a = panel.arena
        let peak = Double(max(a.r, a.g, a.b, 1))
        let k = min(1, fillLimit / peak)
        func dim(_ v: UInt8) -> UInt8 { UInt8((Double(v) * k).rounded()) }
        canvas.fill(panel.square == nil ? RGB(dim(a.r), dim(a.g), dim(a.b)) : RGB(0, 0, 0))
        if let square = panel.square {
            func led(_ v: Double) -> Int { min(size - 1, max(0, Int(v * Double(size)))) }
            canvas[led(square.x), led(square.y)] = ball
        }
    }
}
