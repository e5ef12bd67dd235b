// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Foundation

/// The stored calibration through the whole program: set in the pause
/// menu, saved on quit, read back by the next game; a bad file set aside.
@Suite("calibration kept between games", .serialized)
struct CalibrationCommandTests {
    func files(_ pane: TmuxPane) -> [String] {
        let dir = pane.home + "/.config/tiltmaze/calibration"
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
    }

    @Test("Calibrate here saves the tilt as the neutral; the next game starts from it, so a level board rolls the ball")
    func calibrateHereIsKept() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        // Level, with no neutral yet: the ball lies still on the start cell.
        let home = try #require(try pane.waitForBall(), "no ball on the screen")
        // Right edge raised 9°: the ball rests against the start cell's left wall.
        // The simulated board turns there in about 75 ms: calibrate again
        // until the neutral taken is the whole 9° (a hang bound, not a timing).
        for _ in 0..<3 { try pane.send("Left") }
        var told = ""
        for _ in 0..<20 where !told.contains("Neutral: 9.0° (right edge up 9.0°)") {
            try pane.send("p")
            _ = try pane.waitFor { $0.contains("Calibrate here") }
            try pane.send("Down", "Down", "Enter")   // Restart, Calibrate here
            told = try pane.waitFor { $0.contains("Neutral: ") && !$0.contains("Calibrate here") }
        }
        #expect(told.contains("Neutral: 9.0° (right edge up 9.0°)"), "\(told)")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        let saved = try #require(files(pane).first { $0.contains("simulated-board-") }, "\(files(pane))")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as! [String: Any]
        let up = try #require(json["neutral_up"] as? [Double])
        #expect(up[0] > 0.1, "the right edge was up: up leans to +x, \(up)")

        // A new game on a level board: measured from that neutral, the right
        // edge is down, so the ball rolls right with no key pressed.
        try pane.send("clear", "Enter")
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        // Judged from the start cell, not from where the ball is first seen:
        // a slow machine (emulated arm64) shows it once it has rolled most
        // of the way, and it stops at the corridor's end.
        let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
        var now = home
        while Date() < deadline, now.column <= home.column + 4 {
            usleep(200_000)
            if let p = try pane.ballPosition() { now = p }
        }
        #expect(now.column > home.column + 4, "ball went from the start cell \(home) to \(now)")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
    }

    @Test("a corrupt calibration file is reported with its path after the game, kept aside, and play goes on from level")
    func corruptFileKeptAside() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        // The simulated board's file: its identity's letters and the FNV-1a hash of "simulated board".
        let directory = pane.home + "/.config/tiltmaze/calibration"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/simulated-board-fe1f70d9.json"
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: file))
        try pane.runTiltmaze("play --source sim --level \(ProgramRunner.firstRoll)")
        _ = try pane.waitFor { $0.contains("sensor: simulated") }
        try pane.send("q")
        let after = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        #expect(after.replacingOccurrences(of: "\n", with: "").contains("is not a usable calibration (not JSON"), "\(after)")
        #expect(try String(contentsOfFile: file + ".bad", encoding: .utf8) == "{ not json")
    }
}

@Suite("calibrate and colortilt screens in a terminal", .serialized)
struct PanelCommandTests {
    @Test("calibrate: WASD tilt the simulated board, c takes the neutral, q saves it and says where")
    func calibrate() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("calibrate --source sim")
        _ = try pane.waitFor { $0.contains("TiltMaze · Calibrate") && $0.contains("Neutral: level") }
        try pane.send("s", literal: true)
        try pane.send("s", literal: true)
        _ = try pane.waitFor { $0.contains("Tilt from neutral: 6.0°") }
        try pane.send("c", literal: true)
        let screen = try pane.waitFor { $0.contains("Neutral now 6.0° (top edge up 6.0°)") }
        #expect(screen.contains("Neutral: 6.0° from level (top edge up 6.0°)"))
        try pane.send("q", literal: true)
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"), "\(after)")
        #expect(after.replacingOccurrences(of: "\n", with: "").contains("Neutral: 6.0° from level (top edge up 6.0°); correction on; saved in \(pane.home)/.config/tiltmaze/calibration/simulated-board-"), "\(after)")
        #expect(try pane.variable("alternate_on") == "0")
    }

    @Test("colortilt: a shake along +y (key 3 on the simulated board) turns the arena green, as bright as the tilt")
    func colorTilt() throws {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("colortilt --source sim")
        _ = try pane.waitFor { $0.contains("TiltMaze · ColorTilt") }
        try pane.send("3", literal: true)
        _ = try pane.waitFor { $0.contains("Shake to pick a colour: green") && $0.contains("shakes: 1") }
        for _ in 0..<5 { try pane.send("Right") }   // 15°: a third of full intensity
        // The board turns as a hand would and the estimate settles after it: wait for
        // the settled screen (a third, and the arena that colour), not a moment on the way.
        // The arena green at a third (48;2;13;77;13m); a screen that never shows it fails here.
        _ = try pane.waitFor(escapes: true) { $0.contains("intensity 33 %") && $0.contains("48;2;13;77;13m") }
        try pane.send("q", literal: true)
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"))
    }

    @Test("calibrate refuses a replay; colortilt's and calibrate's help name their keys")
    func refusals() throws {
        let replay = try ProgramRunner.run(["calibrate", "--source", "replay:x.tmr"])
        #expect(replay.status != 0 && replay.stderr.contains("calibrate needs a live sensor"))
        let help = try ProgramRunner.run(["colortilt", "--help"])
        #expect(help.stdout.contains("1.3 g") && help.stdout.contains("gyroscope on (g"))
        let calibrateHelp = try ProgramRunner.run(["calibrate", "--help"])
        #expect(calibrateHelp.stdout.contains("Calibrate (c)") && calibrateHelp.stdout.contains("30°"))
    }
}
