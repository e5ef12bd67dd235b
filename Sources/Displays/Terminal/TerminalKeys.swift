// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls
import LibC
import Synchronization
import SystemCalls
import SystemPackage

/// The keys of a terminal that a command printing lines keeps writing to
/// (`monitor`, `record`), where the simulated board is read: no screen is
/// taken, only the input. Echo and line editing are turned off, so each key
/// arrives as it is pressed and none is printed among the output; the
/// signal keys stay as they are, so Ctrl-C still stops the command its own
/// way and Ctrl-Z still suspends it (after `fg` the keys are taken again).
///
/// The terminal's settings are put back by `restore()` (also run by
/// `deinit`), and on a crash by the async-signal-safe handler the game's
/// terminal uses (`CrashRestore`, which writes nothing to a screen it never
/// took). A `kill -9` leaves them to the shell, which resets its terminal
/// after a job killed by a signal.
public final class TerminalKeys: KeyInput {
    public let input: Int32
    private var savedAttributes: termios
    private var decoder = KeyDecoder()
    private let readBuffer: UnsafeMutableBufferPointer<UInt8>
    private var restored = false

    /// Set by SIGCONT: the shell may have reset the terminal while the command was stopped.
    static let continued = Atomic<Bool>(false)
    static let crashSignals = TerminalSignals.crashSignals

    private init(input: Int32, saved: termios) {
        self.input = input
        savedAttributes = saved
        readBuffer = .allocate(capacity: 256)
        readBuffer.initialize(repeating: 0)
    }

    deinit {
        restore()
        readBuffer.deallocate()
    }

    /// Whether keys can be taken from `input`: a terminal, and this process
    /// in its foreground (a job started with `&` that changed the settings
    /// would be stopped by the terminal, SIGTTOU).
    public static func available(input: Int32 = 0) -> Bool {
        TerminalCalls.isTerminal(input) && tcgetpgrp(input) == getpgrp()
    }

    /// Takes the keys of the terminal on `input`; fails if it is not one,
    /// or the game's terminal session holds it.
    public static func start(input: Int32 = 0) throws(TerminalError) -> TerminalKeys {
        let saved = try TerminalSignals.claim(input)
        continued.store(false, ordering: .relaxed)
        CrashRestore.prepare()
        _ = TerminalSignals.previousActions
        // Output -1: the crash handler puts the settings back and writes nothing.
        CrashRestore.arm(input: input, output: -1, attributes: saved)
        for signal in crashSignals {
            SignalActions.install(signal, { signal in
                CrashRestore.restoreTerminal()
                SignalActions.restore(signal, TerminalSignals.previousActions + Int(signal))
                raise(signal)
            }, flags: Int32(SA_NODEFER) | Int32(SA_ONSTACK), previous: TerminalSignals.previousActions + Int(signal))
        }
        SignalActions.install(SIGCONT, { _ in TerminalKeys.continued.store(true, ordering: .relaxed) },
                              flags: SA_RESTART, previous: TerminalSignals.previousActions + Int(SIGCONT))
        let keys = TerminalKeys(input: input, saved: saved)
        if case .failure(let e) = keys.takeKeys() {
            keys.restore()
            throw .attributes(operation: "tcsetattr", descriptor: input, errno: e.rawValue)
        }
        return keys
    }

    /// Keys one by one, unechoed; signals and output as they were.
    static func keyAttributes(from saved: termios) -> termios {
        var keys = saved
        keys.c_lflag &= ~tcflag_t(ECHO | ICANON)
        withUnsafeMutableBytes(of: &keys.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return keys
    }

    private func takeKeys() -> Result<Void, Errno> {
        var keys = Self.keyAttributes(from: savedAttributes)
        return TerminalCalls.setAttributes(input, when: TCSANOW, &keys)
    }

    /// The command's own stop signals (Ctrl-C, SIGTERM, SIGHUP: `StopSignals`) arrived.
    public var quitRequested: Bool { StopSignals.isRequested }

    /// Waits until the monotonic clock reads `deadline`, handing each key to
    /// `handle` as it arrives; returns sooner once a stop is asked for.
    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        if Self.continued.exchange(false, ordering: .relaxed), !restored { _ = takeKeys() }
        while !quitRequested {
            let left = deadline - MonotonicClock.now()
            if left <= 0 { break }
            // The terminal gone: the wait is a plain sleep now.
            if restored { MonotonicClock.sleep(until: deadline); break }
            guard readAndDecode(timeoutNanoseconds: left, handle) else { continue }
            // The rest of an escape sequence cut between reads, or a lone Esc.
            var waits = 0
            while decoder.hasPending && waits < 4 && readAndDecode(timeoutNanoseconds: 25_000_000, handle) { waits += 1 }
            if decoder.hasPending { decoder.flush(handle) }
        }
    }

    /// One wait and at most one read; false when nothing was read. A
    /// terminal that hung up is left alone: the command goes on without keys.
    private func readAndDecode(timeoutNanoseconds: Int64, _ handle: (Key) -> Void) -> Bool {
        switch TerminalCalls.waitUntilReadable(input, timeoutNanoseconds: timeoutNanoseconds) {
        case .timedOut, .interrupted:
            return false
        case .hungUp:
            restore()
            return false
        case .ready:
            let n: Int
            switch TerminalCalls.readAvailable(input, into: readBuffer) {
            case .success(0):
                restore()
                return false
            case .success(let count): n = count
            case .failure: return false
            }
            decoder.decode(UnsafeBufferPointer(rebasing: readBuffer[0 ..< n]), handle)
            return true
        }
    }

    /// Puts the terminal's settings back as they were (unread keys dropped,
    /// so they do not reach the shell) and the signal handlers. Safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        CrashRestore.disarm()
        _ = TerminalCalls.setAttributes(input, when: TCSAFLUSH, &savedAttributes)
        for signal in Self.crashSignals + [SIGCONT] {
            SignalActions.restore(signal, TerminalSignals.previousActions + Int(signal))
        }
        TerminalSignals.active.store(false, ordering: .releasing)
    }
}
