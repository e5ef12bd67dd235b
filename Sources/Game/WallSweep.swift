// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Moves an axis-aligned square through the maze one axis at a time, stopping
/// it flush against the first wall cell in its way.
///
/// The sweep visits every grid line the leading edge crosses, so no step is
/// too long and no speed too high to tunnel through a wall.
enum WallSweep {
    enum Axis { case x, y }

    /// Keeps a stopped square a hair off the wall so rounding never leaves it
    /// overlapping the cell it just hit.
    static let clearance = 1e-9

    struct Result {
        var position: Double
        var hit: Bool
    }

    /// Moves the square's `center` by `delta` along `axis`; `across` is its
    /// centre on the other axis. Returns where it ends and whether a wall stopped it.
    static func sweep(_ level: Level, along axis: Axis, center: Double, delta: Double,
                      across: Double, radius: Double) -> Result {
        // Cells the square covers across the motion: [across - r, across + r).
        let low = Int((across - radius).rounded(.down))
        let high = Int((across + radius).rounded(.up)) - 1
        func blocked(_ line: Int) -> Bool {
            for other in low...high {
                if axis == .x ? level.isWall(line, other) : level.isWall(other, line) { return true }
            }
            return false
        }

        if delta > 0 {
            let edge = center + radius
            let occupied = Int(edge.rounded(.up)) - 1
            let reached = Int((edge + delta).rounded(.up)) - 1
            var line = occupied + 1
            while line <= reached {
                if blocked(line) { return Result(position: Double(line) - radius - clearance, hit: true) }
                line += 1
            }
        } else if delta < 0 {
            let edge = center - radius
            let occupied = Int(edge.rounded(.down))
            let reached = Int((edge + delta).rounded(.down))
            var line = occupied - 1
            while line >= reached {
                if blocked(line) { return Result(position: Double(line + 1) + radius + clearance, hit: true) }
                line -= 1
            }
        }
        return Result(position: center + delta, hit: false)
    }
}
