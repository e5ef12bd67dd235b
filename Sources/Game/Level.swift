// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A point or vector on the board, in maze cells: x to the right, y down the
/// screen. Cell (c, r) covers [c, c+1) × [r, r+1).
public struct Point: BitwiseCopyable, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    public var description: String { "(\(x), \(y))" }
}

/// What one maze cell is.
public enum Cell: UInt8, Sendable {
    case floor, wall, exit
}

/// A ghost's patrol: straight legs along floor cells from waypoint to
/// waypoint, then back from the last to the first, for ever.
public struct GhostPath: Sendable, Equatable {
    /// Cell coordinates (column, row) of the waypoints; the ghost moves between their centres.
    public var waypoints: [(column: Int, row: Int)]
    /// Cells per second.
    public var speed: Double

    public init(waypoints: [(column: Int, row: Int)], speed: Double) {
        self.waypoints = waypoints
        self.speed = speed
    }

    public static func == (a: GhostPath, b: GhostPath) -> Bool {
        a.speed == b.speed && a.waypoints.elementsEqual(b.waypoints) { $0 == $1 }
    }
}

/// An immutable maze: walls, floor, exits, the start, the pellets and the
/// ghosts' patrols. Shared by the physics thread and the renderer; never
/// changes once parsed.
public final class Level: Sendable {
    public let title: String
    public let width: Int
    public let height: Int
    public let cells: [Cell]
    public let start: (column: Int, row: Int)
    public let ghosts: [GhostPath]
    /// Cells holding a pellet, in reading order; a pellet's number is its index here.
    public let pellets: [(column: Int, row: Int)]
    /// Whether the exits open only once every pellet is eaten.
    public let exitNeedsAllPellets: Bool
    /// Per cell: the number of its pellet, or -1. Lets the physics find a pellet by position.
    @usableFromInline let pelletAt: [Int16]

    /// Most ghosts a level may have: snapshots carry their positions inline.
    public static let maxGhosts = 16
    /// Most pellets a level may have: snapshots carry which are left as an inline bit set.
    public static let maxPellets = PelletSet.capacity

    public init(title: String, width: Int, height: Int, cells: [Cell],
                start: (column: Int, row: Int), ghosts: [GhostPath],
                pellets: [(column: Int, row: Int)] = [], exitNeedsAllPellets: Bool = false) {
        precondition(cells.count == width * height, "cell count must be width × height")
        precondition(ghosts.count <= Level.maxGhosts, "at most \(Level.maxGhosts) ghosts")
        precondition(pellets.count <= Level.maxPellets, "at most \(Level.maxPellets) pellets")
        self.title = title
        self.width = width
        self.height = height
        self.cells = cells
        self.start = start
        self.ghosts = ghosts
        self.pellets = pellets
        self.exitNeedsAllPellets = exitNeedsAllPellets && !pellets.isEmpty
        var pelletAt = [Int16](repeating: -1, count: width * height)
        for (i, p) in pellets.enumerated() {
            precondition(p.column >= 0 && p.row >= 0 && p.column < width && p.row < height, "a pellet must be inside the maze")
            pelletAt[p.row * width + p.column] = Int16(i)
        }
        self.pelletAt = pelletAt
    }

    /// The number of the pellet in cell (column, row), if one is there.
    @inlinable
    public func pellet(_ column: Int, _ row: Int) -> Int? {
        guard column >= 0, row >= 0, column < width, row < height else { return nil }
        let i = pelletAt[row * width + column]
        return i >= 0 ? Int(i) : nil
    }

    /// The cell at (column, row); outside the maze everything is wall, so the
    /// ball can never leave it.
    @inlinable
    public func cell(_ column: Int, _ row: Int) -> Cell {
        guard column >= 0, row >= 0, column < width, row < height else { return .wall }
        return cells[row * width + column]
    }

    @inlinable
    public func isWall(_ column: Int, _ row: Int) -> Bool { cell(column, row) == .wall }

    /// Centre of the start cell.
    public var startPoint: Point { Point(Double(start.column) + 0.5, Double(start.row) + 0.5) }
}
