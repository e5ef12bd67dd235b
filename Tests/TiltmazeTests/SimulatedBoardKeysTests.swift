// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation

/// The simulated board is tilted by the keys wherever it is read from a
/// terminal, not only in the game; where no key can reach it, it says so.
@Suite("the simulated board's keys in monitor and record", .serialized)
struct SimulatedBoardKeysTests {
    /// The x acceleration on the monitor's line, m/s², or nil before one is shown.
    static func accelX(_ screen: String) -> Double? {
        guard let match = screen.range(of: "accel +[+-][0-9]+\\.[0-9]+", options: .regularExpression) else { return nil }
        return Double(screen[match].dropFirst("accel".count).trimmingCharacters(in: .whitespaces))
    }

    @Test("monitor --source sim in tmux: the right arrow tilts the board (x reads gravity's share); Ctrl-C ends it with the terminal as it was")
    func monitorTilts() throws {
        let pane = try TmuxPane(columns: 160, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.runTiltmaze("monitor --source sim")
        let flat = try pane.waitFor { Self.accelX($0) != nil }
        #expect(flat.contains("the arrows (or WASD) tilt it"), "\(flat)")
        #expect(try #require(Self.accelX(flat)) == 0, "\(flat)")
        // Three steps of 3°: the right edge 9° down, 9.807 · sin 9° ≈ 1.5 m/s² along x.
        try pane.send(["Right", "Right", "Right"])
        let tilted = try pane.waitFor { (Self.accelX($0).map(abs) ?? 0) > 1.0 }
        #expect(!tilted.contains("^[[C"), "keys are not echoed among the output: \(tilted)")
        try pane.send("C-c")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"), "\(after)")
        // The settings it found: echo and line editing on again.
        try pane.send("stty -a | tr ' ' '\\n' | grep -xE -- '-?(echo|icanon)' | tr '\\n' ' '; echo stty-done", literal: true)
        try pane.send("Enter")
        let stty = try pane.waitFor { $0.contains("\nicanon echo stty-done") || $0.contains("-icanon") || $0.contains("-echo ") }
        #expect(stty.contains("icanon echo stty-done"), "\(stty)")
    }

    @Test("record --source sim with no terminal still records, and says once that nothing can tilt the board")
    func recordWithoutTerminal() throws {
        let file = temporary("level.tmr")
        defer { unlink(file) }
        let r = try ProgramRunner.run(["record", file, "--source", "sim", "--seconds", "0.3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "stays level: standard input is not a terminal").count == 2, "\(r.stderr)")
        #expect(r.stderr.contains("run this in a terminal to tilt it"), "\(r.stderr)")
    }
}
