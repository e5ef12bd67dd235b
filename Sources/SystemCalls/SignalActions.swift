// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Signal dispositions and masks: what the terminal session and `monitor`
/// use to turn quit and crash signals into flags they act on. Every call is
/// async-signal-safe, so a crash handler may put an action back.
public enum SignalActions {
    /// Installs `handler` for `signal` and stores the action it replaces in
    /// `previous` (nil: forget it). The corresponding C function is `sigaction`.
    public static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void, flags: Int32 = 0,
                               previous: UnsafeMutablePointer<sigaction>? = nil) {
        set(signal, handler, flags: flags, previous: previous)
    }

    /// Gives `signal` its default action (SIGTSTP: stop the process). The
    /// corresponding C function is `sigaction` with `SIG_DFL`.
    public static func setDefault(_ signal: Int32) {
        set(signal, SIG_DFL, flags: 0, previous: nil)
    }

    private static func set(_ signal: Int32, _ handler: __sighandler_t?, flags: Int32, previous: UnsafeMutablePointer<sigaction>?) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sa_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signal, &action, previous)
    }

    /// Puts back an action saved by `install`. The corresponding C function is `sigaction`.
    public static func restore(_ signal: Int32, _ action: UnsafePointer<sigaction>) {
        sigaction(signal, action, nil)
    }

    /// Lets the calling thread (and the threads it creates later, which
    /// inherit its mask) receive `signals`. A parent that spawned us from a
    /// thread with signals blocked (a thread pool, a test runner) passes its
    /// mask on, and SIGTERM would then stay pending for ever.
    /// The corresponding C function is `pthread_sigmask(SIG_UNBLOCK)`.
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
