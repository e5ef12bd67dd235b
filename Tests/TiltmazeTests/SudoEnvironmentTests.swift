// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import SystemCalls
import TestSupport

/// `sudo -E tiltmaze …`: root with a user's XDG_CONFIG_HOME, XDG_STATE_HOME
/// and HOME. The program, run as root here, is given folders owned by
/// another user (nobody), which only root can make: skipped otherwise.
@Suite("run as root with another user's environment")
struct SudoEnvironmentTests {
    static let asRoot = EnvironmentFolder.effectiveUID == 0
    static let needsRoot = "needs root outside a user namespace (to chown a folder to another user); running as uid \(geteuid())"

    /// A folder of nobody's, as a user's ~/.config would be.
    static func theirs() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try #require(chown(dir.path, 65534, 65534) == 0)
        return dir
    }

    @Test("doctor warns that the config folder is not root's, names it and says what to do",
          .enabled(if: asRoot, Comment(rawValue: needsRoot)))
    func doctor() throws {
        let dir = try Self.theirs()
        let r = try ProgramRunner.run(["doctor", "--no-live"], environment: ["XDG_CONFIG_HOME": dir.path])
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("config:") }, "\(r.stdout)\(r.stderr)")
        #expect(line.hasPrefix("WARN config: \(dir.path)/tiltmaze is not root's alone (\(dir.path) is owned by uid 65534, not root)"), "\(line)")
        #expect(line.hasSuffix("Run it without -E (plain sudo), or set XDG_CONFIG_HOME to a folder of root's"), "\(line)")
    }

    @Test("levels says the state folder is refused, and reads nothing there",
          .enabled(if: asRoot, Comment(rawValue: needsRoot)))
    func levels() throws {
        let dir = try Self.theirs()
        // Bad progress: a store that read it would set it aside (a rename root would make in their folder).
        try FileManager.default.createDirectory(atPath: dir.path + "/tiltmaze", withIntermediateDirectories: false)
        try "not json".write(toFile: dir.path + "/tiltmaze/progress.json", atomically: false, encoding: .utf8)
        let r = try ProgramRunner.run(["levels"], environment: ["XDG_STATE_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir.path)/tiltmaze is not root's alone") && r.stderr.contains("progress and best times are neither read nor saved there")
            && r.stderr.contains("set XDG_STATE_HOME to a folder of root's"), "\(r.stderr)")
        #expect(!r.stdout.contains("(progress:"), "\(r.stdout)")
        #expect(dir.names(in: "tiltmaze") == ["progress.json"])
    }
}
