// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import SystemCalls
import TestSupport

/// An atomic save puts a new file in the old one's place: the new file must
/// not be more readable than the one it replaces (a player's 0600 settings
/// made world-readable by the first save).
@Suite("Atomic file")
struct AtomicFileTests {
    static func save(_ text: String, to path: String, replacing: Bool = true) throws {
        try Array(text.utf8).withUnsafeBytes { AtomicFile.write($0, to: path, replacing: replacing) }.get()
    }

    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0, "cannot stat \(path)")
        return status.st_mode & 0o7777
    }

    /// This process's umask, read where reading it changes nothing (umask(2) would, for every thread).
    static func umask() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test("a save over a file keeps the file's mode, and the contents are the new ones", arguments: [0o600, 0o640] as [mode_t])
    func keepsMode(mode: mode_t) throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/settings.json"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, mode) == 0)
        try Self.save("new", to: path)
        let made = try Self.mode(path)
        #expect(made == mode, "mode \(String(made, radix: 8)), not \(String(mode, radix: 8))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(dir.names() == ["settings.json"], "no temporary left beside it")
    }

    @Test("a new file is 0644 less the umask, as before")
    func newFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/progress.json"
        try Self.save("first", to: path)
        #expect(try Self.mode(path) == 0o644 & ~(try Self.umask()))
        let picture = dir.path + "/tiltmaze-1-1.png"
        try Self.save("picture", to: picture, replacing: false)
        #expect(try Self.mode(picture) == 0o644 & ~(try Self.umask()))
    }

    @Test("a set-user-id bit of the file replaced is not carried over to the data written")
    func noSetID() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/file"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, 0o4750) == 0)
        try Self.save("new", to: path)
        #expect(try Self.mode(path) == 0o750)
    }
}
