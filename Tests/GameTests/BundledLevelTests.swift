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
        let distance = MazeGenerator.walkDistances(level.cells, width: level.width, height: level.height, from: level.start)
        #expect(level.cells.indices.contains { level.cells[$0] == .exit && distance[$0] > 0 })
    }
}
