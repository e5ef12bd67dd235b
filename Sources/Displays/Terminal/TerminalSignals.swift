// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import LibC
import Synchronization
import SystemCalls
import SystemPackage

/// Signal handling for the terminal session. Handlers may only do
/// async-signal-safe work, so the quit and resize handlers store into lock-free
/// atomics that the render loop reads; nothing else happens in the handler.
///
/// The state is process-wide because signal dispositions are: only one
/// `TerminalSession` may be active at a time (`active`).
enum TerminalSignals {
    /// The signal that asked us to quit (SIGINT, SIGTERM, SIGHUP), or 0.
    static let quitSignal = Atomic<Int32>(0)
    /// Set by SIGWINCH, cleared by `TerminalSession.takeResize()`.
    static let resized = Atomic<Bool>(false)
    /// Set by SIGTSTP (`kill -TSTP`; Ctrl-Z itself arrives as a byte in raw
    /// mode), cleared when the session has suspended and come back.
    static let suspendRequested = Atomic<Bool>(false)
    /// Whether a session owns the terminal (and the handlers are installed).
    static let active = Atomic<Bool>(false)

    static let quitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Actions replaced by ours, indexed by signal number (all of ours are < 32),
    /// kept outside the Swift heap's object graph so the crash handler can
    /// read them without retains.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
        actions.initialize(repeating: sigaction(), count: 32)
        return actions
    }()

    /// Installs every handler; call once per session, before raw mode.
    static func install() {
        // Touch the lazily initialised globals now, so a handler never runs
        // their one-time initialisation.
        quitSignal.store(0, ordering: .relaxed)
        resized.store(false, ordering: .relaxed)
        suspendRequested.store(false, ordering: .relaxed)
        _ = previousActions
        CrashRestore.prepare()

        for signal in quitSignals {
            SignalActions.install(signal, { signal in
                TerminalSignals.quitSignal.store(signal, ordering: .relaxed)
            }, flags: 0, previous: previousActions + Int(signal))
        }
        SignalActions.install(SIGWINCH, { _ in
            TerminalSignals.resized.store(true, ordering: .relaxed)
        }, flags: SA_RESTART, previous: previousActions + Int(SIGWINCH))
        installSuspendHandler()
        for signal in crashSignals {
            // SA_NODEFER: the handler re-raises its own signal and must not
            // have it blocked. SA_ONSTACK: a stack overflow can still be handled
            // if someone set up an alternate stack.
            SignalActions.install(signal, { signal in
                CrashRestore.restoreTerminal()
                SignalActions.restore(signal, TerminalSignals.previousActions + Int(signal))
                raise(signal)
            }, flags: Int32(SA_NODEFER) | Int32(SA_ONSTACK), previous: previousActions + Int(signal))
        }
        SignalActions.unblock(quitSignals + [SIGWINCH, SIGTSTP, SIGCONT])
    }

    /// SIGTSTP asks for a suspension the frame loop carries out (giving the
    /// terminal back first), instead of stopping the process mid-frame.
    static func installSuspendHandler() {
        SignalActions.install(SIGTSTP, { _ in
            TerminalSignals.suspendRequested.store(true, ordering: .relaxed)
        }, flags: SA_RESTART, previous: previousActions + Int(SIGTSTP))
    }

    /// Puts back the actions `install` replaced.
    static func uninstall() {
        for signal in quitSignals + [SIGWINCH, SIGTSTP] + crashSignals {
            SignalActions.restore(signal, previousActions + Int(signal))
        }
    }
}

extension TerminalSignals {
    /// The settings of the terminal on `input` as found, and the claim on
    /// them: one owner of the saved settings and the crash handlers at a
    /// time (the game's session, or the keys a command reads). Whoever
    /// claims gives `active` back when done.
    static func claim(_ input: Int32) throws(TerminalError) -> termios {
        guard TerminalCalls.isTerminal(input) else {
            throw .notATerminal(descriptor: input, detail: TerminalError.describeNonTerminal(input))
        }
        var saved = termios()
        if case .failure(let e) = TerminalCalls.getAttributes(input, into: &saved) {
            throw .attributes(operation: "tcgetattr", descriptor: input, errno: e.rawValue)
        }
        guard active.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .sessionAlreadyActive
        }
        return saved
    }
}
