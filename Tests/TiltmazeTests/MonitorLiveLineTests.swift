// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation

@Suite("tiltmaze monitor's live line in a terminal", .serialized)
struct MonitorLiveLineTests {
    /// Runs `monitor` for 400 samples of the simulated board (two seconds at
    /// 200 Hz: several refreshes, four a second) and returns the screen's
    /// lines before the shell's exit line (standard error, which says what
    /// is read, goes elsewhere: at 60 columns it wraps, as it may).
    func liveLines(columns: Int) throws -> (lines: [String], screen: String) {
        let pane = try TmuxPane(columns: columns, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        // The command typed is cleared before the program starts, so that only its output is on screen.
        try pane.send("clear; \(ProgramRunner.binary) monitor --source sim --samples 400 2>/dev/null; echo tiltmaze-exit=$?", literal: true)
        try pane.send("Enter")
        let screen = try pane.waitFor(timeout: 120) { TmuxPane.showsExit($0) }
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let exit = try #require(rows.lastIndex { TmuxPane.showsExit($0) }, "\(screen)")
        return (Array(rows[..<exit]).filter { !$0.isEmpty }, screen)
    }

    @Test("at 100 columns the live line is redrawn in place: one line after several refreshes, the acceleration, rotation, rate and counts on it")
    func fitsOneHundredColumns() throws {
        let (lines, screen) = try liveLines(columns: 100)
        #expect(lines.count == 1, "\(screen)")
        let line = try #require(lines.first)
        #expect(line.count <= 100)
        #expect(line.hasPrefix("accel") && line.contains("+9.807") && line.contains("gyro"), "\(line)")
        #expect(line.contains("200.0 Hz") && line.contains("drop 0") && line.contains("rej 0"), "\(line)")
    }

    @Test("at 60 columns too: one line, shorter, keeping the acceleration, the rotation and the rate")
    func fitsSixtyColumns() throws {
        let (lines, screen) = try liveLines(columns: 60)
        #expect(lines.count == 1, "\(screen)")
        let line = try #require(lines.first)
        #expect(line.count <= 60)
        #expect(line.hasPrefix("accel") && line.contains("+9.81") && line.contains("gyro") && line.contains("200.0 Hz"), "\(line)")
    }
}
