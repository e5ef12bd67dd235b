// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Controls
import SystemCalls
import LibC
import Synchronization
import SystemPackage

/// Owns the real terminal while the game runs: raw mode, alternate screen,
/// hidden cursor, signal flags, key input and the one-write frame output.
///
/// Everything it changes it puts back in `restore()` (idempotent, also run by
/// `deinit`), and, should the program crash, in a signal handler that does
/// the same with async-signal-safe calls only (`CrashRestore`).
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    private var savedAttributes: termios
    private var decoder = KeyDecoder()
    /// Bytes of one `read`; allocated once, so polling input never allocates.
    private let readBuffer: UnsafeMutableBufferPointer<UInt8>
    private var restored = false

    /// Enter the alternate screen, hide the cursor, clear.
    static let enterBytes: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J"
    /// How long a lone ESC waits for the rest of an escape sequence. Terminals
    /// send a sequence in one write, so only slow links need more than a few ms.
    static let escapeTimeoutMilliseconds: Int32 = 25
    /// Size assumed when the terminal reports none.
    static let fallbackSize = (columns: 80, rows: 24)

    private init(input: Int32, output: Int32, savedAttributes: termios) {
        self.input = input
        self.output = output
        self.savedAttributes = savedAttributes
        readBuffer = .allocate(capacity: 256)
        readBuffer.initialize(repeating: 0)
    }

    deinit {
        restore()
        readBuffer.deallocate()
    }

    /// Takes over the terminal on `input`/`output`: saves its settings, enters
    /// raw mode (no echo, no line editing, no signal keys: Ctrl-C arrives as
    /// `Key.interrupt`), switches to the alternate screen and hides the
    /// cursor. Fails if either descriptor is not a terminal.
    public static func start(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) -> TerminalSession {
        guard TerminalCalls.isTerminal(output) else {
            throw .notATerminal(descriptor: output, detail: TerminalError.describeNonTerminal(output))
        }
        let saved = try TerminalSignals.claim(input)

        TerminalSignals.install()
        CrashRestore.arm(input: input, output: output, attributes: saved)
        var raw = Self.rawAttributes(from: saved)
        if case .failure(let e) = TerminalCalls.setAttributes(input, when: TCSANOW, &raw) {
            let code = e.rawValue
            CrashRestore.disarm()
            TerminalSignals.uninstall()
            TerminalSignals.active.store(false, ordering: .releasing)
            throw .attributes(operation: "tcsetattr", descriptor: input, errno: code)
        }
        let session = TerminalSession(input: input, output: output, savedAttributes: saved)
        session.write(Self.enterBytes)
        return session
    }

    /// Raw mode as the game needs it: bytes arrive one by one, unechoed, with
    /// Ctrl-C/Ctrl-Z/Ctrl-S as plain bytes and CR not turned into LF. Output
    /// processing stays on, so a stray newline still returns the carriage.
    static func rawAttributes(from saved: termios) -> termios {
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// The terminal's size in cells (80×24 if it does not say).
    public var size: (columns: Int, rows: Int) {
        TerminalCalls.windowSize(output) ?? TerminalCalls.windowSize(input) ?? Self.fallbackSize
    }

    /// Ctrl-Z was typed or SIGTSTP arrived: the owner should call `suspend()`
    /// once it has let go of what else it holds.
    public var suspendRequested: Bool { TerminalSignals.suspendRequested.load(ordering: .relaxed) }

    /// Suspends the program as a shell's job control expects: the terminal
    /// put back as it was found (main screen, cursor, cooked mode), then the
    /// process and its job stopped with SIGTSTP's default action. Returns after `fg`
    /// (SIGCONT) with the terminal taken again; the caller redraws
    /// everything. Where the process cannot be stopped (an orphaned process
    /// group: no shell to resume it) it returns at once, still playing.
    public func suspend() {
        TerminalSignals.suspendRequested.store(false, ordering: .relaxed)
        guard !restored else { return }
        putTerminalBack()
        SignalActions.setDefault(SIGTSTP)
        // The whole process group, as the terminal would have stopped it had
        // Ctrl-Z not come as a byte: run as `make play`, make and its shell
        // are in the game's job, and a shell gives its prompt back only
        // once the whole job has stopped.
        kill(0, SIGTSTP)
        // Continued (or never stopped). The shell may have changed the
        // settings meanwhile: those are what to give back at the end.
        TerminalSignals.installSuspendHandler()
        var current = termios()
        if case .success = TerminalCalls.getAttributes(input, into: &current) { savedAttributes = current }
        CrashRestore.arm(input: input, output: output, attributes: savedAttributes)
        var raw = Self.rawAttributes(from: savedAttributes)
        _ = TerminalCalls.setAttributes(input, when: TCSANOW, &raw)
        write(Self.enterBytes)
        TerminalSignals.resized.store(true, ordering: .relaxed)
    }

    /// SIGINT, SIGTERM or SIGHUP arrived, or the terminal hung up.
    public var quitRequested: Bool { TerminalSignals.quitSignal.load(ordering: .relaxed) != 0 }

    /// The new size if the terminal was resized (SIGWINCH) since the last call.
    public func takeResize() -> (columns: Int, rows: Int)? {
        TerminalSignals.resized.exchange(false, ordering: .relaxed) ? size : nil
    }

    /// Writes a frame in one `write(2)` (more only for a partial write or a
    /// signal). A terminal that is gone counts as a request to quit.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if !TerminalCalls.writeAll(output, base, bytes.count) {
            TerminalSignals.quitSignal.store(SIGHUP, ordering: .relaxed)
        }
    }

    private func write(_ bytes: StaticString) {
        write(UnsafeRawBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount))
    }

    /// Waits up to `timeoutMilliseconds` for input (returning early on a
    /// signal) and reports every key that arrived. An escape sequence cut
    /// between reads is completed from the next read; a lone ESC becomes
    /// `.escape` once no more bytes follow within a few milliseconds.
    public func pollInput(timeoutMilliseconds: Int32, _ handle: (Key) -> Void) {
        pollInput(timeoutNanoseconds: Poll.nanoseconds(timeoutMilliseconds), handle)
    }

    private func pollInput(timeoutNanoseconds: Int64, _ handle: (Key) -> Void) {
        guard readAndDecode(timeoutNanoseconds: timeoutNanoseconds, handle) else { return }
        var waits = 0
        while decoder.hasPending && waits < 4 {
            if !readAndDecode(timeoutNanoseconds: Poll.nanoseconds(Self.escapeTimeoutMilliseconds), handle) { break }
            waits += 1
        }
        if decoder.hasPending { decoder.flush(handle) }
    }

    /// Waits until the monotonic clock reads `deadline`, handing each key to
    /// `handle` as it arrives; returns sooner only when a quit is requested.
    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        while !quitRequested && !suspendRequested {
            let left = deadline - MonotonicClock.now()
            if left <= 0 { break }
            // To the nanosecond (ppoll): one wake-up a frame, at its deadline or at a key.
            pollInput(timeoutNanoseconds: left, handle)
        }
    }

    /// One poll and at most one read; false when nothing was read.
    private func readAndDecode(timeoutNanoseconds: Int64, _ handle: (Key) -> Void) -> Bool {
        switch TerminalCalls.waitUntilReadable(input, timeoutNanoseconds: timeoutNanoseconds) {
        case .timedOut, .interrupted:
            return false
        case .hungUp:
            TerminalSignals.quitSignal.store(SIGHUP, ordering: .relaxed)
            return false
        case .ready:
            let n: Int
            switch TerminalCalls.readAvailable(input, into: readBuffer) {
            case .success(0):
                TerminalSignals.quitSignal.store(SIGHUP, ordering: .relaxed)
                return false
            case .success(let count):
                n = count
            case .failure:
                return false
            }
            decoder.decode(UnsafeBufferPointer(rebasing: readBuffer[0 ..< n])) { key in
                if key == .suspend {
                    TerminalSignals.suspendRequested.store(true, ordering: .relaxed)
                } else {
                    handle(key)
                }
            }
            return true
        }
    }

    /// Puts the terminal back as it was: colours reset, cursor shown, main
    /// screen, saved settings (discarding unread input, so stray keys do not
    /// reach the shell), signal handlers. Safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        putTerminalBack()
        TerminalSignals.uninstall()
        TerminalSignals.active.store(false, ordering: .releasing)
    }

    /// Colours reset, cursor shown, main screen, the saved settings (unread
    /// input discarded, so stray keys do not reach the shell); a crash from
    /// here on leaves the terminal alone.
    private func putTerminalBack() {
        CrashRestore.disarm()
        write(CrashRestore.restoreBytes)
        _ = TerminalCalls.setAttributes(input, when: TCSAFLUSH, &savedAttributes)
    }
}
