// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import Testing
import Controls
import Game
@testable import Displays
@testable import Render
import TestSupport
import Synchronization

/// Sends `signal` to the whole process (test threads may block signals, so
/// `raise` could leave it pending) and waits for `arrived` (up to the hang bound).
func sendToProcess(_ signal: Int32, until arrived: () -> Bool) {
    kill(getpid(), signal)
    _ = eventually(arrived)
}

/// Serialized: signal dispositions and the one active session are process-wide.
@Suite("Terminal session", .serialized)
struct TerminalSessionTests {
    @Test func startingOnAPipeFailsSayingItIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let pty = PseudoTerminal()
        #expect {
            _ = try TerminalSession.start(input: pty.slave, output: fds[1])
        } throws: { error in
            guard let error = error as? TerminalError, case .notATerminal(let fd, let detail) = error else { return false }
            return fd == fds[1] && detail == "a pipe"
                && error.description.contains("is not a terminal")
                && error.description.contains("tiltmaze monitor --json")
        }
    }

    @Test func theMessageNamesStandardOutput() {
        let error = TerminalError.notATerminal(descriptor: 1, detail: "a pipe")
        #expect(error.description.hasPrefix("standard output is not a terminal (it is a pipe)"))
        #expect(error.description.contains("needs one"))
    }

    @Test func startEntersRawModeAndTheAlternateScreenWithTheCursorHidden() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        let modes = pty.attributes
        #expect(modes.c_lflag & tcflag_t(ECHO) == 0)
        #expect(modes.c_lflag & tcflag_t(ICANON) == 0)
        #expect(modes.c_lflag & tcflag_t(ISIG) == 0)
        #expect(modes.c_iflag & tcflag_t(ICRNL) == 0)
        let shown = pty.drain()
        #expect(shown.contains("\u{1B}[?1049h"))
        #expect(shown.contains("\u{1B}[?25l"))
    }

    @Test func restorePutsTheSettingsBackAndLeavesTheAlternateScreen() throws {
        let pty = PseudoTerminal()
        let before = TerminalModes(pty.attributes)
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        _ = pty.drain()
        session.restore()
        #expect(TerminalModes(pty.attributes) == before)
        let shown = pty.drain()
        #expect(shown.contains("\u{1B}[?1049l"))
        #expect(shown.contains("\u{1B}[?25h"))
        #expect(shown.contains("\u{1B}[0m"))
    }

    @Test func restoreIsIdempotent() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        session.restore()
        _ = pty.drain()
        session.restore()
        #expect(pty.drain().isEmpty)
    }

    @Test func droppingTheSessionRestoresTheTerminal() throws {
        let pty = PseudoTerminal()
        let before = TerminalModes(pty.attributes)
        do { _ = try TerminalSession.start(input: pty.slave, output: pty.slave) }
        #expect(TerminalModes(pty.attributes) == before)
        #expect(pty.drain().contains("\u{1B}[?1049l"))
    }

    @Test func onlyOneSessionCanOwnTheTerminalAtATime() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        #expect(throws: TerminalError.self) { _ = try TerminalSession.start(input: pty.slave, output: pty.slave) }
        session.restore()
        let again = try TerminalSession.start(input: pty.slave, output: pty.slave)
        again.restore()
    }

    @Test func theSizeComesFromTheTerminal() throws {
        let pty = PseudoTerminal()
        pty.setSize(columns: 100, rows: 40)
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        #expect(session.size == (100, 40))
    }

    @Test func aWindowChangeSignalReportsTheNewSizeOnce() throws {
        let pty = PseudoTerminal()
        pty.setSize(columns: 80, rows: 24)
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        #expect(session.takeResize() == nil)
        pty.setSize(columns: 120, rows: 50)
        sendToProcess(SIGWINCH) { TerminalSignals.resized.load(ordering: .relaxed) }
        let resized = session.takeResize()
        #expect(resized?.columns == 120 && resized?.rows == 50)
        #expect(session.takeResize() == nil)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aQuitSignalSetsQuitRequestedInsteadOfKilling(signal: Int32) throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        #expect(!session.quitRequested)
        sendToProcess(signal) { session.quitRequested }
        #expect(session.quitRequested)
    }

    @Test func typedKeysAreDecoded() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        pty.type("\u{1B}[Aq\u{3} \r\u{1B}OD")
        var keys: [Key] = []
        session.pollInput(timeoutMilliseconds: 500) { keys.append($0) }
        #expect(keys == [.up, .character(UInt8(ascii: "q")), .interrupt, .space, .enter, .left])
    }

    @Test func aLoneEscapeIsReportedAfterAShortWait() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        pty.type("\u{1B}")
        var keys: [Key] = []
        session.pollInput(timeoutMilliseconds: 500) { keys.append($0) }
        #expect(keys == [.escape])
    }

    @Test func pollingWithNothingTypedTimesOutWithNoKeys() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        var keys: [Key] = []
        session.pollInput(timeoutMilliseconds: 10) { keys.append($0) }
        #expect(keys.isEmpty)
    }

    @Test func writeSendsAFrameToTheTerminal() throws {
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        _ = pty.drain()
        let screen = CellGrid(columns: 4, rows: 1, colorMode: .truecolor)
        screen.drawText("hey!", column: 0, row: 0, foreground: RGB(1, 2, 3), background: RGB(4, 5, 6))
        session.write(screen.encodeFrame())
        let shown = pty.drain()
        #expect(shown.hasPrefix("\u{1B}[?2026h"))
        #expect(shown.contains("hey!"))
    }

    /// The crash handler's work, without the crash: what it does must leave
    /// the terminal as `restore()` would.
    @Test func theCrashRestorePathRestoresTheSettingsAndTheScreen() throws {
        let pty = PseudoTerminal()
        let before = TerminalModes(pty.attributes)
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        defer { session.restore() }
        _ = pty.drain()
        CrashRestore.restoreTerminal()
        #expect(TerminalModes(pty.attributes) == before)
        let shown = pty.drain()
        #expect(shown.contains("\u{1B}[?1049l"))
        #expect(shown.contains("\u{1B}[?25h"))
        // Disarmed: a second crash (or the handler running twice) writes nothing.
        CrashRestore.restoreTerminal()
        #expect(pty.drain().isEmpty)
    }

    @Test func crashSignalsHaveAHandlerOnlyWhileASessionIsActive() throws {
        func handlerIsInstalled(_ signal: Int32) -> Bool {
            var action = sigaction()
            sigaction(signal, nil, &action)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) > 1
        }
        let before = [SIGSEGV, SIGABRT].map(handlerIsInstalled)
        let pty = PseudoTerminal()
        let session = try TerminalSession.start(input: pty.slave, output: pty.slave)
        #expect(handlerIsInstalled(SIGSEGV) && handlerIsInstalled(SIGABRT) && handlerIsInstalled(SIGBUS))
        session.restore()
        #expect([SIGSEGV, SIGABRT].map(handlerIsInstalled) == before)
    }
}
