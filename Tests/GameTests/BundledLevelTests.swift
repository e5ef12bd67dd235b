import Testing
import Foundation
@testable import Game

@Suite("The bundled level")
struct BundledLevelTests {
    @Test("it parses, and has ghosts")
    func parses() throws {
        let level = try LevelParser(file: "bundled").parse(BundledLevels.firstRoll)
        #expect(level.title == "First Roll")
        #expect(level.ghosts.count == 3)
    }

    @Test("the compiled-in text is the same as levels/first-roll.txt")
    func matchesFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("levels/first-roll.txt"), encoding: .utf8)
        #expect(file.trimmingCharacters(in: .newlines) == BundledLevels.firstRoll.trimmingCharacters(in: .newlines))
    }

    @Test("the exit can be reached from the start")
    func exitReachable() {
        let level = BundledLevels.defaultLevel()
        var seen = Set<[Int]>()
        var queue = [[level.start.column, level.start.row]]
        var found = false
        while let c = queue.popLast() {
            guard seen.insert(c).inserted else { continue }
            if level.cell(c[0], c[1]) == .exit { found = true; break }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] where !level.isWall(c[0] + dx, c[1] + dy) {
                queue.append([c[0] + dx, c[1] + dy])
            }
        }
        #expect(found)
    }
}
