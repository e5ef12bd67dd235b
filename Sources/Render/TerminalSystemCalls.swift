#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one place the terminal code reaches the C library. Each function is a
/// thin, typed face on one call; `EINTR` is retried here and nowhere else
/// (except `poll`, whose interruption is news: a signal arrived).
///
/// Everything here is async-signal-safe except where noted, because the crash
/// handler uses `write` and `setAttributes`.
enum TerminalSystemCalls {
    /// The corresponding C function is `isatty`.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The corresponding C function is `tcgetattr`. Returns errno on failure.
    static func getAttributes(_ descriptor: Int32, into attributes: inout termios) -> Int32? {
        tcgetattr(descriptor, &attributes) == 0 ? nil : errno
    }

    /// The corresponding C function is `tcsetattr`. Returns errno on failure.
    static func setAttributes(_ descriptor: Int32, when: Int32, _ attributes: UnsafePointer<termios>) -> Int32? {
        while tcsetattr(descriptor, when, attributes) != 0 {
            if errno != EINTR { return errno }
        }
        return nil
    }

    /// The corresponding C function is `write`: one call, repeated only for
    /// the rest of a partial write or after `EINTR`/`EAGAIN`. Returns false
    /// when the terminal is gone (EIO, EBADF, …).
    static func writeAll(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = write(descriptor, base + offset, count - offset)
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // Someone made the descriptor non-blocking: wait until it drains.
                _ = waitUntilWritable(descriptor, timeoutMilliseconds: 100)
                continue
            }
            return false
        }
        return true
    }

    /// The corresponding C function is `read`. Returns the byte count, 0 at
    /// end of file, or -1 with nothing to read.
    static func readAvailable(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        while true {
            let n = read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// What `poll` saw on one descriptor.
    enum Readiness { case ready, timedOut, interrupted, hungUp }

    /// The corresponding C function is `poll`, on one descriptor for input.
    static func waitUntilReadable(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Readiness {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let n = poll(&entry, 1, timeoutMilliseconds)
        if n < 0 { return errno == EINTR ? .interrupted : .hungUp }
        if n == 0 { return .timedOut }
        if entry.revents & Int16(POLLIN) != 0 { return .ready }
        return .hungUp // POLLHUP, POLLERR or POLLNVAL without data.
    }

    /// The corresponding C function is `poll`, on one descriptor for output.
    static func waitUntilWritable(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, timeoutMilliseconds) > 0
    }

    /// The corresponding C call is `ioctl(TIOCGWINSZ)`. Nil when the
    /// descriptor has no window size (or reports 0×0, as some ptys do).
    static func windowSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The corresponding C function is `sigaction`: installs `handler` and
    /// stores the action it replaces in `previous`.
    static func installHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void,
                               flags: Int32, previous: UnsafeMutablePointer<sigaction>) {
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

    /// The corresponding C function is `pthread_sigmask(SIG_UNBLOCK)`: lets the
    /// calling thread (and the threads it creates later, which inherit its
    /// mask) receive `signals`. A parent that spawned us from a thread with
    /// signals blocked (a thread pool, a test runner) passes its mask on, and
    /// SIGTERM would then stay pending for ever.
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The corresponding C function is `sigaction`: puts back a saved action.
    static func reinstall(_ signal: Int32, _ action: UnsafePointer<sigaction>) {
        sigaction(signal, action, nil)
    }
}
