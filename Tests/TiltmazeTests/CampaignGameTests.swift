// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import TestSupport

/// A campaign played in a real terminal, from a fresh player's state: levels
/// opening one by one, progress kept on disk, a bad progress file survived.
@Suite("a campaign in a terminal", .serialized)
struct CampaignGameTests {
    /// A folder of two one-corridor levels, each won by holding the right arrow.
    final class Folder {
        let path: String

        init() throws {
            var template = Array("/tmp/tiltmaze-campaign-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            try "title: Short Hop\nmaze:\n######\n#S..E#\n######\n"
                .write(toFile: path + "/01-short-hop.txt", atomically: true, encoding: .utf8)
            try "title: Longer Hop\nmaze:\n########\n#S....E#\n########\n"
                .write(toFile: path + "/02-longer-hop.txt", atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    func start(_ pane: TmuxPane, _ folder: Folder, title: String) throws {
        try pane.send("\(ProgramRunner.binary) play --source sim --campaign \(folder.path) 2>\(pane.home)/err.txt; echo tiltmaze-exit=$?", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains(title) && $0.contains("sensor: simulated") }
    }

    @Test("a fresh player wins level 1, takes Next level to level 2; the win is saved, and the next game starts at level 2")
    func winOpensNext() throws {
        let folder = try Folder()
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try start(pane, folder, title: "1/2 Short Hop")

        // All in one go: sent one tmux run at a time, under emulation the ball won before the last
        // arrived, and those moved the win menu's highlight off Next level.
        try pane.send(Array(repeating: "Right", count: 8))
        let won = try pane.waitFor { $0.contains("Escaped in") }
        #expect(won.contains("new best!") && won.contains("Next level"), "\(won)")
        #expect(won.contains("\u{25B6} Next level"), "the highlight is on Next level: \(won)")
        // Next level is the first item of a campaign's win menu. The board is levelled first (space
        // works in menus), so level 2 starts still: left tilted right, its ball would roll on.
        try pane.send("Space")
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("2/2 Longer Hop") && !$0.contains("Escaped in") }
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }

        let progress = try String(contentsOfFile: pane.home + "/.local/state/tiltmaze/progress.json", encoding: .utf8)
        #expect(progress.contains("\"tiltmaze-progress\"") && progress.contains("\"level/short-hop-"), "\(progress)")
        #expect(!progress.contains("longer-hop"), "level 2 was not won: \(progress)")

        let list = try ProgramRunner.run(["levels", "--campaign", folder.path], environment: ["HOME": pane.home, "XDG_STATE_HOME": pane.home + "/.local/state"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("1  Short Hop   best ") && lines[1] == "2  Longer Hop  new", "\(list.stdout)")

        // A new game goes straight to the first level not yet won.
        try start(pane, folder, title: "2/2 Longer Hop")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
    }

    @Test("a progress file that is not one is kept aside, the player is told after the game, and play goes on from level 1")
    func corruptProgress() throws {
        let folder = try Folder()
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        let state = pane.home + "/.local/state/tiltmaze"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try "{\"format\": \"tiltmaze-progress\", \"ver".write(toFile: state + "/progress.json", atomically: true, encoding: .utf8)

        try start(pane, folder, title: "1/2 Short Hop")
        try pane.send(Array(repeating: "Right", count: 8))
        _ = try pane.waitFor { $0.contains("Escaped in") && $0.contains("new best!") }
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }

        let err = try String(contentsOfFile: pane.home + "/err.txt", encoding: .utf8)
        #expect(err.contains(state + "/progress.json") && err.contains("progress.json.bad"), "\(err)")
        let kept = try String(contentsOfFile: state + "/progress.json.bad", encoding: .utf8)
        #expect(kept == "{\"format\": \"tiltmaze-progress\", \"ver", "the bad file is kept as it was")
        let fresh = try String(contentsOfFile: state + "/progress.json", encoding: .utf8)
        #expect(fresh.contains("\"level/short-hop-"), "the win after it was saved: \(fresh)")
    }
}
