// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A ghost's patrol as a closed loop of straight legs between cell centres,
/// measured once so a position is a lookup by distance travelled.
struct GhostPatrol: Sendable {
    let points: [Point]
    /// Length of leg i, from points[i] to points[(i + 1) % n].
    let legLengths: [Double]
    let loopLength: Double
    let speed: Double

    init(_ path: GhostPath) {
        let centres = path.waypoints.map { Point(Double($0.column) + 0.5, Double($0.row) + 0.5) }
        // Two waypoints: out and back. More: round the loop, closing to the first.
        points = centres
        var lengths: [Double] = []
        for i in centres.indices {
            let a = centres[i], b = centres[(i + 1) % centres.count]
            lengths.append(abs(b.x - a.x) + abs(b.y - a.y))   // legs are axis-aligned
        }
        legLengths = lengths
        loopLength = lengths.reduce(0, +)
        speed = path.speed
    }

    /// Where the ghost is after travelling `distance` cells from its first
    /// waypoint, and the way it is going (a unit vector along its leg; zero
    /// for a ghost that does not move).
    func place(at distance: Double) -> (position: Point, heading: Point) {
        guard loopLength > 0 else { return (points[0], .zero) }
        var d = distance.truncatingRemainder(dividingBy: loopLength)
        if d < 0 { d += loopLength }
        var i = 0
        while i < legLengths.count - 1 && d > legLengths[i] {
            d -= legLengths[i]
            i += 1
        }
        let a = points[i], b = points[(i + 1) % points.count]
        let length = legLengths[i]
        let t = length > 0 ? min(1, d / length) : 0
        let heading = length > 0 ? Point((b.x - a.x) / length, (b.y - a.y) / length) : .zero
        return (Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), heading)
    }

    /// Where the ghost is after travelling `distance` cells from its first waypoint.
    func position(at distance: Double) -> Point {
        place(at: distance).position
    }
}
