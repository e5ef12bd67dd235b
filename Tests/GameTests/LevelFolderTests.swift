// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import TestSupport
@testable import Game

@Suite("A folder of level files played as a campaign")
struct LevelFolderTests {
    func level(_ title: String) -> String { "title: \(title)\nmaze:\n#####\n#S.E#\n#####\n" }

    @Test("the *.txt files, in the order of their names; other files are not levels")
    func order() throws {
        let dir = TemporaryDirectory()
        try level("Second").write(toFile: dir.path + "/02-b.txt", atomically: true, encoding: .utf8)
        try level("First").write(toFile: dir.path + "/01-a.txt", atomically: true, encoding: .utf8)
        try "notes".write(toFile: dir.path + "/README", atomically: true, encoding: .utf8)
        try level("Hidden").write(toFile: dir.path + "/.01-a.txt.swp.txt", atomically: true, encoding: .utf8)
        #expect(try LevelFolder.load(dir.path + "/").map(\.title) == ["First", "Second"])
    }

    @Test("a missing folder, a file, an empty folder and too many levels each say what to do")
    func unusable() throws {
        let dir = TemporaryDirectory()
        func reason(_ path: String) -> String? {
            do {
                _ = try LevelFolder.load(path)
                return nil
            } catch let error as LevelFolderError {
                #expect(error.description.hasPrefix(path + ": cannot play this folder as a campaign: "))
                return error.reason
            } catch {
                return "\(error)"
            }
        }
        #expect(reason(dir.path + "/nope") == "no such folder")
        #expect(reason(dir.path)?.hasPrefix("it holds no level files") == true)
        try level("One").write(toFile: dir.path + "/one.txt", atomically: true, encoding: .utf8)
        #expect(reason(dir.path + "/one.txt") == "it is a file; give a level file with --level")
        for i in 0 ..< LevelFolder.maximumLevels {
            try level("L\(i)").write(toFile: dir.path + "/l\(i).txt", atomically: true, encoding: .utf8)
        }
        #expect(reason(dir.path) == "it holds \(LevelFolder.maximumLevels + 1) level files; a campaign has at most \(LevelFolder.maximumLevels)")
    }

    @Test("a level that does not parse is named with its line and column")
    func badLevel() throws {
        let dir = TemporaryDirectory()
        try level("Fine").write(toFile: dir.path + "/01.txt", atomically: true, encoding: .utf8)
        try "title: Broken\nmaze:\n#####\n#S..#\n#####\n".write(toFile: dir.path + "/02.txt", atomically: true, encoding: .utf8)
        #expect(throws: LevelError.self) { try LevelFolder.load(dir.path) }
        do {
            _ = try LevelFolder.load(dir.path)
        } catch {
            #expect("\(error)".hasPrefix(dir.path + "/02.txt:"), "\(error)")
        }
    }

    @Test("a folder campaign opens level by level, its records keyed by each level's content")
    func playlist() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        let levels = try ["A", "B", "C"].map { try LevelParser(file: $0).parse(level($0)) }
        let first = Playlist.campaign(folder: levels, store: store)
        #expect(first.isCampaign && first.current == 0 && first.unlocked == 1)
        first.recordWin(time: 2)
        let second = Playlist.campaign(folder: levels, store: store, start: 2)
        #expect(second.unlocked == 2 && second.current == 1, "level 3 is not open: start at the highest open one")
        #expect(second.progress.records.keys.sorted() == [LevelKey.file(levels[0])])
    }
}
