// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Reads the plain-text level format (documented in docs/playing.md, "Level files").
///
/// ```
/// # comments and blank lines are allowed before the maze
/// title: First Roll
/// ghost: 3,1 -> 9,1 speed 2.5
/// exit: after pellets
/// maze:
/// ###########
/// #S o#  o E#
/// ###########
/// ```
///
/// Every problem is reported with the file, line and column and what was
/// expected, so a level author can fix it in one go.
public struct LevelParser: Sendable {
    public var file: String

    public init(file: String) { self.file = file }

    /// Default ghost speed, cells per second.
    public static let defaultGhostSpeed = 2.0

    public func parse(_ text: String) throws(LevelError) -> Level {
        var title = "Untitled"
        var exitNeedsAllPellets = false
        var exitLine: (line: Int, column: Int)?
        var ghostLines: [(line: Int, text: Substring, column: Int)] = []
        var mazeStart: Int?

        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)

        // Header: `key: value` lines up to `maze:`.
        for (index, raw) in lines.enumerated() {
            let lineNumber = index + 1
            let trimmed = raw.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw error(lineNumber, column(of: trimmed.startIndex, in: raw),
                            "expected `key: value` (title, ghost, exit) or `maze:` before the maze")
            }
            let key = trimmed[..<colon].trimmingSpaces()
            let valueStart = trimmed.index(after: colon)
            let value = trimmed[valueStart...].trimmingSpaces()
            let valueColumn = column(of: value.startIndex, in: raw)
            switch key {
            case "maze":
                guard value.isEmpty else {
                    throw error(lineNumber, valueColumn, "expected the maze rows on the lines after `maze:`, not on its line")
                }
                mazeStart = index + 1
            case "title":
                guard !value.isEmpty else { throw error(lineNumber, valueColumn, "expected a title after `title:`") }
                title = String(value)
            case "ghost":
                ghostLines.append((lineNumber, value, valueColumn))
            case "exit":
                switch value {
                case "open": exitNeedsAllPellets = false
                case "after pellets": exitNeedsAllPellets = true
                default:
                    throw error(lineNumber, valueColumn,
                                "expected `open` (the default) or `after pellets` (the exit opens once every `o` is eaten) after `exit:`")
                }
                exitLine = (lineNumber, valueColumn)
            default:
                throw error(lineNumber, column(of: trimmed.startIndex, in: raw),
                            "unknown key `\(key)`; expected `title`, `ghost`, `exit` or `maze`")
            }
            if mazeStart != nil { break }
        }

        guard let first = mazeStart else {
            throw error(lines.count, 1, "expected a `maze:` line followed by the maze rows")
        }

        // Maze rows: up to the end of the file, trailing blank lines ignored.
        var rows = Array(lines[first...])
        while let last = rows.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { rows.removeLast() }
        guard !rows.isEmpty else { throw error(first + 1, 1, "expected maze rows after `maze:`") }

        let width = rows.map { $0.count }.max() ?? 0
        let height = rows.count
        var cells = [Cell](repeating: .wall, count: width * height)
        var start: (column: Int, row: Int, line: Int, col: Int)?
        var exits = 0
        var pellets: [(column: Int, row: Int)] = []
        for (r, row) in rows.enumerated() {
            let lineNumber = first + r + 1
            for (c, ch) in row.enumerated() {
                let cell: Cell
                switch ch {
                case "#": cell = .wall
                case " ", ".": cell = .floor
                case "E": cell = .exit; exits += 1
                case "o":
                    guard pellets.count < Level.maxPellets else {
                        throw error(lineNumber, c + 1, "too many pellets; a level may have at most \(Level.maxPellets)")
                    }
                    pellets.append((c, r))
                    cell = .floor
                case "S":
                    if let s = start {
                        throw error(lineNumber, c + 1, "a second start `S`; the first is at line \(s.line), column \(s.col)")
                    }
                    start = (c, r, lineNumber, c + 1)
                    cell = .floor
                default:
                    throw error(lineNumber, c + 1,
                                "unexpected `\(ch)` in the maze; expected `#` (wall), `.` or space (floor), `o` (a pellet), `S` (start) or `E` (exit)")
                }
                cells[r * width + c] = cell
            }
            // Cells past the end of a short row stay wall.
        }
        guard let s = start else { throw error(first + 1, 1, "the maze has no start; put one `S` on a floor cell") }
        guard exits > 0 else { throw error(first + 1, 1, "the maze has no exit; put at least one `E` on a floor cell") }
        if exitNeedsAllPellets, pellets.isEmpty, let at = exitLine {
            throw error(at.line, at.column, "`exit: after pellets` needs pellets: put some `o` in the maze, or remove the line")
        }

        let isFloor = { (c: Int, r: Int) -> Bool in
            c >= 0 && r >= 0 && c < width && r < height && cells[r * width + c] != .wall
        }
        var ghosts: [GhostPath] = []
        for g in ghostLines {
            guard ghosts.count < Level.maxGhosts else {
                throw error(g.line, 1, "too many ghosts; a level may have at most \(Level.maxGhosts)")
            }
            ghosts.append(try parseGhost(g.text, line: g.line, firstColumn: g.column, isFloor: isFloor))
        }

        return Level(title: title, width: width, height: height, cells: cells,
                     start: (s.column, s.row), ghosts: ghosts, pellets: pellets, exitNeedsAllPellets: exitNeedsAllPellets)
    }

    /// `c,r -> c,r [-> c,r …] [speed S]`
    private func parseGhost(_ text: Substring, line: Int, firstColumn: Int,
                            isFloor: (Int, Int) -> Bool) throws(LevelError) -> GhostPath {
        var rest = text
        var speed = Self.defaultGhostSpeed
        if let range = rest.firstRange(of: "speed") {
            let numberText = rest[range.upperBound...].trimmingSpaces()
            let col = firstColumn + text.distance(from: text.startIndex, to: numberText.startIndex)
            guard let v = Double(numberText), v > 0, v <= 50 else {
                throw error(line, col, "expected a ghost speed in cells per second (a number above 0, at most 50) after `speed`")
            }
            speed = v
            rest = rest[..<range.lowerBound]
        }

        var points: [(column: Int, row: Int)] = []
        for part in rest.split(separator: "->", omittingEmptySubsequences: false) {
            let item = part.trimmingSpaces()
            let col = firstColumn + text.distance(from: text.startIndex, to: item.isEmpty ? part.startIndex : item.startIndex)
            let numbers = item.split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2,
                  let c = Int(numbers[0].trimmingSpaces()), let r = Int(numbers[1].trimmingSpaces()) else {
                throw error(line, col, "expected a waypoint `column,row` (0-based maze cell), got `\(item)`")
            }
            guard isFloor(c, r) else {
                throw error(line, col, "waypoint \(c),\(r) is not a floor cell of the maze")
            }
            if let p = points.last {
                guard p.column == c || p.row == r else {
                    throw error(line, col, "ghost legs must be straight: \(p.column),\(p.row) -> \(c),\(r) is diagonal")
                }
                try checkLeg(from: p, to: (c, r), line: line, column: col, isFloor: isFloor)
            }
            points.append((c, r))
        }
        guard points.count >= 2 else {
            throw error(line, firstColumn, "a ghost needs at least two waypoints, e.g. `ghost: 3,1 -> 9,1`")
        }
        if points.count > 2 {
            // The patrol closes back to the first waypoint: that leg must be walkable too.
            let last = points[points.count - 1], head = points[0]
            guard last.column == head.column || last.row == head.row else {
                throw error(line, firstColumn, "the ghost returns from \(last.column),\(last.row) to its first waypoint \(head.column),\(head.row) in a straight line; that leg is diagonal (add a waypoint)")
            }
            try checkLeg(from: last, to: head, line: line, column: firstColumn, isFloor: isFloor)
        }
        return GhostPath(waypoints: points, speed: speed)
    }

    private func checkLeg(from a: (column: Int, row: Int), to b: (column: Int, row: Int),
                          line: Int, column: Int, isFloor: (Int, Int) -> Bool) throws(LevelError) {
        let dc = (b.column - a.column).signum(), dr = (b.row - a.row).signum()
        var c = a.column, r = a.row
        while c != b.column || r != b.row {
            c += dc; r += dr
            guard isFloor(c, r) else {
                throw error(line, column, "the ghost's leg \(a.column),\(a.row) -> \(b.column),\(b.row) runs through the wall at \(c),\(r)")
            }
        }
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> LevelError {
        LevelError(file: file, line: line, column: column, message: message)
    }

    private func column(of index: Substring.Index, in line: Substring) -> Int {
        line.distance(from: line.startIndex, to: index) + 1
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
