// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Random mazes (`--maze random:SEED`, `tiltmaze generate`): a perfect maze
/// carved by a depth-first walk, then a few walls knocked out so there are
/// loops to dodge ghosts by; the start in the top-left room, the exit in the
/// room the longest walk away, ghosts patrolling straight corridors away
/// from the start. The same seed and size give the same maze on every
/// machine (a seeded SplitMix64, no floating point in the carving).
public enum MazeGenerator {
    /// The smallest and largest sizes, in cells with the border.
    public static let minimumSize = 7
    public static let maximumSize = 201

    public struct SizeError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Checks a size as the command line gives it.
    public static func validate(width: Int, height: Int) throws(SizeError) {
        for (name, value) in [("width", width), ("height", height)]
        where value < minimumSize || value > maximumSize {
            throw SizeError(description: "the maze \(name) must be \(minimumSize) to \(maximumSize) cells, not \(value)")
        }
    }

    /// The maze for `seed` at `width`×`height` cells (an even size loses its
    /// last column or row to the border: rooms sit at odd cells). The phases
    /// run in this order and draw from one generator, so the order is part
    /// of what a seed means.
    public static func generate(seed: UInt64, width: Int, height: Int) throws(SizeError) -> Level {
        try validate(width: width, height: height)
        var random = SplitMix64(seed: seed)
        var grid = Grid(width: width, height: height)
        carve(&grid, &random)
        openLoops(&grid, &random)
        let start = (column: 1, row: 1)
        let distance = walkDistances(grid.cells, width: width, height: height, from: start)
        placeExit(&grid, distance: distance)
        let ghosts = patrols(grid, distance: distance, &random)
        let pellets = scatterPellets(grid, avoiding: start, &random)
        return Level(title: "Random maze \(width)x\(height), seed \(seed)", width: width, height: height, cells: grid.cells,
                     start: start, ghosts: ghosts, pellets: pellets)
    }

    /// The cells being carved, walls to begin with.
    struct Grid {
        let width: Int, height: Int
        var cells: [Cell]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            cells = [Cell](repeating: .wall, count: width * height)
        }

        func index(_ c: Int, _ r: Int) -> Int { r * width + c }
        func isFloor(_ c: Int, _ r: Int) -> Bool { cells[index(c, r)] == .floor }
    }

    /// Depth-first carving from the top-left room, with an explicit stack:
    /// a perfect maze (one way between any two rooms).
    static func carve(_ grid: inout Grid, _ random: inout SplitMix64) {
        let roomsAcross = (grid.width - 1) / 2, roomsDown = (grid.height - 1) / 2
        var visited = [Bool](repeating: false, count: roomsAcross * roomsDown)
        var stack = [(0, 0)]
        visited[0] = true
        grid.cells[grid.index(1, 1)] = .floor
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        while let (x, y) = stack.last {
            var options: [(Int, Int)] = []
            for (dx, dy) in steps {
                let nx = x + dx, ny = y + dy
                if nx >= 0, ny >= 0, nx < roomsAcross, ny < roomsDown, !visited[ny * roomsAcross + nx] { options.append((nx, ny)) }
            }
            guard !options.isEmpty else { stack.removeLast(); continue }
            let (nx, ny) = options[random.below(options.count)]
            visited[ny * roomsAcross + nx] = true
            grid.cells[grid.index(2 * nx + 1, 2 * ny + 1)] = .floor
            grid.cells[grid.index(x + nx + 1, y + ny + 1)] = .floor   // the wall between the two rooms
            stack.append((nx, ny))
        }
    }

    /// Loops: opens about one wall in ten of those still standing between two rooms.
    static func openLoops(_ grid: inout Grid, _ random: inout SplitMix64) {
        let w = grid.width, h = grid.height
        var between: [Int] = []
        for r in 1 ..< h - 1 {
            for c in 1 ..< w - 1 where grid.cells[grid.index(c, r)] == .wall {
                let horizontal = c % 2 == 0 && r % 2 == 1 && c + 1 < w - 1
                let vertical = c % 2 == 1 && r % 2 == 0 && r + 1 < h - 1
                if horizontal || vertical { between.append(grid.index(c, r)) }
            }
        }
        for _ in 0 ..< between.count / 10 {
            between.swapAt(random.below(between.count), between.count - 1)
            grid.cells[between.removeLast()] = .floor
        }
    }

    /// The exit: the room the longest walk from the start (`distance`).
    static func placeExit(_ grid: inout Grid, distance: [Int]) {
        var exit = (column: 1, row: 1), farthest = -1
        for r in stride(from: 1, to: grid.height - 1, by: 2) {
            for c in stride(from: 1, to: grid.width - 1, by: 2) where distance[grid.index(c, r)] > farthest {
                farthest = distance[grid.index(c, r)]
                exit = (c, r)
            }
        }
        grid.cells[grid.index(exit.column, exit.row)] = .exit
    }

    /// Ghosts: straight runs of floor three cells or longer, none within
    /// eight steps of the start, one per ~200 cells of maze, at most the level's limit.
    static func patrols(_ grid: Grid, distance: [Int], _ random: inout SplitMix64) -> [GhostPath] {
        let w = grid.width, h = grid.height
        var runs: [(from: (column: Int, row: Int), to: (column: Int, row: Int))] = []
        for r in 1 ..< h - 1 {
            var c = 1
            while c < w - 1 {
                guard grid.isFloor(c, r) else { c += 1; continue }
                var end = c
                while end + 1 < w - 1, grid.isFloor(end + 1, r) { end += 1 }
                if end - c >= 2 { runs.append(((c, r), (end, r))) }
                c = end + 1
            }
        }
        for c in 1 ..< w - 1 {
            var r = 1
            while r < h - 1 {
                guard grid.isFloor(c, r) else { r += 1; continue }
                var end = r
                while end + 1 < h - 1, grid.isFloor(c, end + 1) { end += 1 }
                if end - r >= 2 { runs.append(((c, r), (c, end))) }
                r = end + 1
            }
        }
        runs.removeAll { run in
            min(distance[grid.index(run.from.column, run.from.row)], distance[grid.index(run.to.column, run.to.row)]) < 8
        }
        var ghosts: [GhostPath] = []
        let wanted = min(Level.maxGhosts, max(1, (w * h) / 200))
        while ghosts.count < wanted, !runs.isEmpty {
            let run = runs.remove(at: random.below(runs.count))
            // Speeds from 1.5 to 2.5 cells/s in tenths: exact in the level file.
            let speed = Double(15 + random.below(11)) / 10
            ghosts.append(GhostPath(waypoints: [run.from, run.to], speed: speed))
        }
        return ghosts
    }

    /// Pellets: in about one room in eight, never the start's or the exit's,
    /// all reachable (every room is); eating them scores, the exit stays open.
    static func scatterPellets(_ grid: Grid, avoiding start: (column: Int, row: Int),
                               _ random: inout SplitMix64) -> [(column: Int, row: Int)] {
        var rooms: [(column: Int, row: Int)] = []
        for r in stride(from: 1, to: grid.height - 1, by: 2) {
            for c in stride(from: 1, to: grid.width - 1, by: 2) where grid.isFloor(c, r) && (c, r) != start {
                rooms.append((c, r))
            }
        }
        var pellets: [(column: Int, row: Int)] = []
        let pelletCount = min(Level.maxPellets, max(1, rooms.count / 8), rooms.count)
        for _ in 0 ..< pelletCount {
            rooms.swapAt(random.below(rooms.count), rooms.count - 1)
            pellets.append(rooms.removeLast())
        }
        pellets.sort { ($0.row, $0.column) < ($1.row, $1.column) }   // reading order, as a parsed file gives them
        return pellets
    }

    /// Steps from `start` to every cell along the floor (exits count as floor); −1 where it cannot go.
    public static func walkDistances(_ cells: [Cell], width: Int, height: Int, from start: (column: Int, row: Int)) -> [Int] {
        var distance = [Int](repeating: -1, count: cells.count)
        var queue = [start.row * width + start.column]
        distance[queue[0]] = 0
        var head = 0
        while head < queue.count {
            let i = queue[head]
            head += 1
            let c = i % width, r = i / width
            for (nc, nr) in [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]
            where nc >= 0 && nr >= 0 && nc < width && nr < height {
                let j = nr * width + nc
                if distance[j] < 0 && cells[j] != .wall {
                    distance[j] = distance[i] + 1
                    queue.append(j)
                }
            }
        }
        return distance
    }
}

/// SplitMix64: a tiny generator whose sequence is fixed by its seed, on every platform.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n, without modulo bias.
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        let bound = UInt64(n)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let v = next()
            if v < limit { return Int(v % bound) }
        }
    }
}
