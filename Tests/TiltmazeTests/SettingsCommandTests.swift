// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing

/// The player's feel through the whole program: changed in the menu's
/// Settings, kept on quitting, read back by the next game; the options set
/// it for one game; a bad settings file is set aside with a message.
@Suite("the player's feel kept between games", .serialized)
struct SettingsCommandTests {
    /// Opens the pause menu's Settings (it is the item before Quit).
    func openSettings(_ pane: TmuxPane) throws {
        try pane.send("p")
        _ = try pane.waitFor { $0.contains("PAUSED") }
        try pane.send("Up", "Up", "Enter")
        _ = try pane.waitFor { $0.contains("Settings: left/right change") }
    }

    @Test("changed in Settings, kept on quitting, shown again by the next game")
    func keptAndReloaded() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        try openSettings(pane)
        try pane.send("Right", "Right", "Down", "Down", "Right")
        let changed = try pane.waitFor { $0.contains("Smoothing     0.02 s") }
        #expect(changed.contains("Sensitivity   2.00x"), "\(changed)")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        let file = pane.home + "/.config/tiltmaze/settings.json"
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as! [String: Any]
        #expect(json["sensitivity"] as? Double == 2 && json["smoothing_s"] as? Double == 0.02, "\(json)")

        try pane.send("clear", "Enter")
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        try openSettings(pane)
        let again = try pane.waitFor { $0.contains("Sensitivity   2.00x") }
        #expect(again.contains("Smoothing     0.02 s"))
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
    }

    @Test("a bad settings file is named after the game, kept aside, and the game plays as shipped")
    func badFileSetAside() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        let dir = pane.home + "/.config/tiltmaze"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("{\"format\":\"tiltmaze-settings\",\"version\":1,\"sensitivity\":40}".utf8)
            .write(to: URL(fileURLWithPath: dir + "/settings.json"))
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        try openSettings(pane)
        _ = try pane.waitFor { $0.contains("Sensitivity   1.00x") }
        try pane.send("q")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        // The terminal wraps the line at 100 columns.
        let said = after.replacingOccurrences(of: "\n", with: "")
        #expect(said.contains("settings.json is not a settings file (sensitivity must be between 0.25 and 4); kept it as"), "\(after)")
        #expect(FileManager.default.fileExists(atPath: dir + "/settings.json.bad"))
    }

    @Test("options out of range are refused naming the option")
    func optionRanges() throws {
        for (args, said) in [(["--sensitivity", "5"], "--sensitivity must be between 0.25 and 4"),
                             (["--dead-zone", "-1"], "--dead-zone must be between 0 and 15 degrees"),
                             (["--smoothing", "nan"], "--smoothing must be between 0 and 0.5 seconds"),
                             (["--invert", "z"], "--invert")] {
            let result = try ProgramRunner.run(["play", "--source", "sim"] + args)
            #expect(result.status == 64, "\(args)")
            #expect(result.stderr.contains(said), "\(args): \(result.stderr)")
        }
    }
}
