// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import TestSupport
@testable import Game

@Suite("Progress: best times and open levels, kept between runs")
struct ProgressStoreTests {
    @Test("the file is under XDG_STATE_HOME, else ~/.local/state; relative paths are ignored")
    func location() {
        #expect(ProgressStore.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path == "/s/tiltmaze/progress.json")
        #expect(ProgressStore.standard(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h/"])?.path
                == "/h/.local/state/tiltmaze/progress.json")
        #expect(ProgressStore.standard(environment: ["HOME": "h"]) == nil)
    }

    @Test("run as root, a state or config folder of another user's makes no store: nothing read or written there",
          .enabled(if: geteuid() == 0, "only root can give a folder to another user (chown)"))
    func notRootsFolder() throws {
        let dir = TemporaryDirectory()
        #expect(chown(dir.path, 65534, 65534) == 0)
        let environment = ["XDG_STATE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
        #expect(ProgressStore.standard(environment: environment, effectiveUID: 0) == nil)
        #expect(FeelStore.standard(environment: environment, effectiveUID: 0) == nil)
        // Another user with the same environment is that user's business, as before.
        #expect(ProgressStore.standard(environment: environment, effectiveUID: 1000)?.directory == dir.path + "/tiltmaze")
        #expect(FeelStore.standard(environment: environment, effectiveUID: 1000)?.directory == dir.path + "/tiltmaze")
    }

    @Test("a win is saved at once, the best time kept, wins counted; a new store reads them back")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path + "/state/tiltmaze")
        var progress = store.load().progress
        #expect(progress.records.isEmpty)
        let bests = [12.5, 13, 9.875].map { progress.recordWin("campaign/01-a", time: $0) }
        #expect(bests == [true, false, true])
        guard case .success(let path) = store.save(progress) else { Issue.record("not saved"); return }
        #expect(path == store.path)
        let again = ProgressStore(directory: store.directory).load()
        #expect(again.problem == nil)
        #expect(again.progress.records["campaign/01-a"] == LevelRecord(best: 9.875, wins: 3))
        // Nothing left beside it: written by rename.
        #expect(dir.names(in: "state/tiltmaze") == ["progress.json"])
    }

    @Test("a corrupt or foreign file is reported, kept aside, and play goes on from nothing",
          arguments: ["not json", "[]", #"{"format":"other","version":1}"#, #"{"format":"tiltmaze-progress","version":7}"#,
                      #"{"format":"tiltmaze-progress","version":1,"levels":{"x":{"best_s":-1,"wins":1}}}"#,
                      #"{"format":"tiltmaze-progress","version":1,"levels":{"x":{"best_s":3,"wins":0}}}"#])
    func corrupt(_ text: String) throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        try Data("older".utf8).write(to: URL(fileURLWithPath: store.path + ".bad"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        let loaded = store.load()
        #expect(loaded.progress.records.isEmpty && loaded.maySave)
        let problem = try #require(loaded.problem)
        #expect(problem.contains(store.path) && problem.contains("kept it as \(store.path).bad-2"), "\(problem)")
        #expect(try String(contentsOfFile: store.path + ".bad-2", encoding: .utf8) == text)
        #expect(try String(contentsOfFile: store.path + ".bad", encoding: .utf8) == "older")
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test("the campaign opens level by level, starts at the first not yet won, and the banner shows the best")
    func playlist() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        let first = Playlist.campaign(store: store)
        #expect(first.current == 0 && first.unlocked == 1)
        #expect(first.banner.best == nil && first.banner.title.hasPrefix("1/\(Campaign.levels.count) "))
        #expect(first.banner.levelLabels.count == Campaign.levels.count)
        #expect(first.banner.levelLabels[0].hasSuffix("new") && first.banner.levelLabels[1].hasSuffix("locked"))
        first.recordWin(time: 7.25)
        #expect(first.banner.newBest && first.banner.best == 7.25)
        #expect(first.unlocked == 2 && first.banner.levelLabels[0].hasSuffix("best 7.25 s"))
        first.recordWin(time: 8)
        #expect(!first.banner.newBest && first.banner.best == 7.25)

        // The next run reads it: level 2 is where it starts, level 3 stays shut.
        let next = Playlist.campaign(store: store)
        #expect(next.current == 1 && next.unlocked == 2)
        let asked = Playlist.campaign(store: store, start: 5)
        #expect(asked.current == 1, "a shut level is not started")
        #expect(problemsFree(next))
    }

    @Test("a win is merged with what another game saved meanwhile")
    func merges() {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        let a = Playlist.campaign(store: store), b = Playlist.campaign(store: store)
        a.recordWin(time: 5)
        b.select(0)
        b.recordWin(time: 6)
        let loaded = store.load().progress
        #expect(loaded.records[Campaign.levels[0].key] == LevelRecord(best: 5, wins: 2))
    }

    @Test("a level file keeps its record by title and content; a random maze keeps none")
    func singleLevels() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        let level = Campaign.levels[0].level
        let key = LevelKey.file(level)
        #expect(key.hasPrefix("level/") && key != LevelKey.file(Campaign.levels[1].level))
        let single = Playlist.single(level, key: key, store: store)
        single.recordWin(time: 3)
        #expect(store.load().progress.records[key]?.best == 3)
        let random = try MazeGenerator.generate(seed: 1, width: 21, height: 11)
        let none = Playlist.single(random, key: nil, store: store)
        none.recordWin(time: 1)
        #expect(store.load().progress.records.count == 1 && none.banner.best == nil)
    }

    private func problemsFree(_ p: Playlist) -> Bool { p.problems.isEmpty }
}
