// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import LinuxMotion
import MotionDevices

/// README.md's "Use it in your own program" example, compiled here: the
/// test finds the README's lines, in order, in `readmeExample()` below, so
/// the README cannot show code that does not build.
@Suite("LinuxMotion: the README's example")
struct ReadmeExampleTests {
    /// The README's example as it stands there (it reads forever: compiled, not run).
    func readmeExample() async throws {
        let manager = MotionManager(source: .auto, rate: 100)
        for try await motion in try manager.deviceMotionUpdates() {
            let g = motion.gravity
            print("gravity \(g.x) \(g.y) \(g.z) m/s²")
        }
    }

    static let root = #filePath.components(separatedBy: "/Tests/")[0]

    @Test("the README's example is the code compiled in readmeExample()")
    func readmeShowsCompiledCode() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Use it in your own program").dropFirst().first)
        let code = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
        #expect(lines.count >= 4)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let body = try #require(source.components(separatedBy: "func readmeExample() async throws {").dropFirst().first)
        let compiled = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(compiled.prefix(lines.count)) == lines, "README.md's example differs from readmeExample()")
    }

    @Test("the same lines run on the simulated board")
    func runsOnTheSimulatedBoard() async throws {
        var seen = 0
        let manager = MotionManager(source: .sim, rate: 100)
        for try await motion in try manager.deviceMotionUpdates() {
            let g = motion.gravity
            #expect(g.length > 9 && g.length < 10.6)
            seen += 1
            if seen == 5 { break }
        }
        manager.stop()
        #expect(seen == 5)
    }
}
