// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Foundation
import Render
import SystemCalls

/// The whole program in a real terminal (tmux), driven by keys as a player would.
@Suite("tiltmaze play in a terminal", .serialized)
struct TerminalGameTests {
    func ballPosition(_ pane: TmuxPane) throws -> (column: Double, row: Double)? { try pane.ballPosition() }

    /// Polls the ball's position until `done` holds (or, on a hang, 20 s pass), and
    /// returns the last position seen (`start` if the ball never showed).
    func ballPosition(_ pane: TmuxPane, from start: (column: Double, row: Double),
                      until done: ((column: Double, row: Double)) -> Bool) throws -> (column: Double, row: Double) {
        var last = start
        let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
        while Date() < deadline {
            usleep(200_000)
            if let p = try ballPosition(pane) { last = p }
            if done(last) { break }
        }
        return last
    }

    /// Starts the game in a shell inside tmux and waits for its first frame.
    func startGame(_ pane: TmuxPane, _ args: String = "", title: String = "First Roll") throws {
        try pane.send("\(ProgramRunner.binary) play --source sim \(args.contains("--level") ? "" : "--level \(ProgramRunner.firstRoll)") \(args); echo tiltmaze-exit=$?", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains(title) && $0.contains("sensor: simulated") }
    }

    @Test("holding the right arrow rolls the ball right; q quits back to the shell with the terminal restored")
    func rightArrowMovesBall() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try startGame(pane)
        #expect(try pane.variable("alternate_on") == "1")

        let start = try #require(try ballPosition(pane), "the ball is not on screen")
        // A held key is a stream of repeats.
        for _ in 0..<6 {
            try pane.send("Right")
            usleep(60_000)
        }
        let moved = try ballPosition(pane, from: start) { $0.column > start.column + 8 }
        #expect(moved.column > start.column + 8, "ball went from \(start) to \(moved)")
        #expect(abs(moved.row - start.row) < 1.0, "ball should roll along its row, went \(start) → \(moved)")

        try pane.send("q")
        let after = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        #expect(after.contains("shell$"))
        #expect(try pane.variable("alternate_on") == "0")
        #expect(try pane.variable("cursor_flag") == "1")
        // Back in cooked mode with echo: typed text appears at the prompt.
        try pane.send("echo cooked-again", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("\ncooked-again") }
    }

    @Test("--stats puts the live figures on the status line and the sensor on the bottom line")
    func statistics() throws {
        let pane = try TmuxPane(columns: 120, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.send("\(ProgramRunner.binary) play --source sim --level \(ProgramRunner.firstRoll) --stats; echo tiltmaze-exit=$?", literal: true)
        try pane.send("Enter")
        let screen = try pane.waitFor { $0.contains("First Roll") && $0.contains("tick ") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let status = try #require(lines.first { $0.contains("First Roll") })
        #expect(status.contains(/tick \d+\/\d+us  frame \d+\.\dms cost \d+\.\d\dms  age \d+\.\d\/\d+\.\dms  dropped \d+/), "\(status)")
        #expect(lines.contains { $0.contains("sensor: simulated board (--source sim)") }, "\(screen)")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
    }

    @Test("Ctrl-C quits too and restores the terminal")
    func ctrlCQuits() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try startGame(pane)
        try pane.send("C-c")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        #expect(try pane.variable("alternate_on") == "0")
    }

    @Test("Ctrl-Z suspends with the terminal given back; fg resumes the game, redrawn, its clock not counting the time away")
    func ctrlZSuspends() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        // No `; echo` after it: bash runs the rest of a list at once when its job stops.
        try pane.send("\(ProgramRunner.binary) play --source sim --level \(ProgramRunner.firstRoll)", literal: true)
        try pane.send("Enter")
        let before = try pane.waitFor { $0.contains("First Roll") && $0.contains("sensor: simulated") && Self.elapsedSeconds($0) != nil }
        let playedBefore = try #require(Self.elapsedSeconds(before))
        let stoppedAt = MonotonicClock.now()
        try pane.send("C-z")
        _ = try pane.waitFor { $0.contains("Stopped") }
        #expect(try pane.variable("alternate_on") == "0")
        #expect(try pane.variable("cursor_flag") == "1")
        // The shell is usable meanwhile: cooked mode, echo.
        try pane.send("echo while-suspended", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("\nwhile-suspended") }
        sleep(3)

        try pane.send("fg; echo after-fg=$?", literal: true)
        try pane.send("Enter")
        let back = try pane.waitFor { $0.contains("First Roll") && $0.contains("sensor: simulated") && !$0.contains("while-suspended") }
        #expect(try pane.variable("alternate_on") == "1")
        // The status line's clock: the three seconds spent stopped are not in it.
        let playedAfter = try #require(Self.elapsedSeconds(back), "no game clock on the status line:\n\(back)")
        let wall = Double(MonotonicClock.now() - stoppedAt) / 1e9
        #expect(playedAfter - playedBefore < wall - 2.5,
                "the game clock went \(playedBefore) → \(playedAfter) s over \(wall) s, three of them stopped")
        // Still playing: the ball rolls.
        let start = try #require(try ballPosition(pane), "the ball is not on screen after fg")
        for _ in 0..<6 {
            try pane.send("Right")
            usleep(60_000)
        }
        let moved = try ballPosition(pane, from: start) { $0.column > start.column + 8 }
        #expect(moved.column > start.column + 8, "after fg the ball went from \(start) to \(moved)")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("after-fg=0") }
        #expect(try pane.variable("alternate_on") == "0")
    }

    @Test("Ctrl-Z under a parent that waits for it (as make play runs the game) stops the whole job: the prompt comes back")
    func ctrlZStopsTheWholeJob() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        // sh runs the game as a child and waits for it, as make's recipe
        // shell does: the shell's job is sh, the game and whatever is
        // between them, and bash gives its prompt back once all of it stops.
        try pane.send("sh -c '\(ProgramRunner.binary) play --source sim --level \(ProgramRunner.firstRoll); echo after-game=$?'", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("First Roll") && $0.contains("sensor: simulated") }
        try pane.send("C-z")
        _ = try pane.waitFor { $0.contains("Stopped") }
        try pane.send("echo while-suspended", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("\nwhile-suspended") }
        #expect(try pane.variable("alternate_on") == "0")
        try pane.send("fg", literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("First Roll") && !$0.contains("while-suspended") }
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("after-game=0") }
    }

    /// The game's clock on the status line ("12.3 s" after the title).
    static func elapsedSeconds(_ screen: String) -> Double? {
        guard let status = screen.split(separator: "\n").first(where: { $0.contains("First Roll") }),
              let match = status.firstMatch(of: /(\d+\.\d) s/) else { return nil }
        return Double(match.1)
    }

    @Test("SIGTERM ends the game with the terminal restored")
    func sigtermRestores() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        // An argument no other test uses, so pkill finds this game only.
        try startGame(pane, "--sensor-rate 199")
        let killed = try ProgramRunner.shell("/usr/bin/pkill", ["-TERM", "-f", "sensor-rate 199"])
        #expect(killed.status == 0, "pkill signalled nothing (status \(killed.status)): \(killed.stderr)")
        _ = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(try pane.variable("alternate_on") == "0")
        #expect(try pane.variable("cursor_flag") == "1")
    }

    @Test("the picture follows a resize of the terminal")
    func resize() throws {
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try startGame(pane)
        let before = try #require(try ballPosition(pane))
        try pane.run(["resize-window", "-x", "120", "-y", "40"])
        let after = try ballPosition(pane, from: before) { $0.row > before.row + 1 }
        // A larger window scales the maze up, so the ball lands further from the top-left.
        #expect(after.row > before.row + 1 || after.column > before.column + 1, "ball stayed at \(before) after resize")
        try pane.send("q")
        _ = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
    }

    @Test("rolling into the exit shows the win and the time, and the time is printed after quitting")
    func winShowsTime() throws {
        let path = NSTemporaryDirectory() + "tiltmaze-short-\(getpid()).txt"
        try "title: Short Hop\nmaze:\n######\n#S..E#\n######\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try pane.waitFor { $0.contains("shell$") }
        try startGame(pane, "--level \(path)", title: "Short Hop")
        for _ in 0..<8 { try pane.send("Right") }
        // The first win of this level for this player: a best time, saved at once.
        let won = try pane.waitFor { $0.contains("Escaped in") }
        #expect(won.contains("new best!") && won.contains("Play again") && won.contains("Quit"))
        #expect(won.contains("best "), "the status line shows the best time now")
        try pane.send("q")
        let after = try pane.waitFor { $0.contains("tiltmaze-exit=0") }
        #expect(after.contains("You escaped \"Short Hop\" in "))
    }
}
