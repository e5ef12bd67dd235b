// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// A terminal's own calls (termios, window size, reads and writes), each a
/// thin face on one C function; failures come back as `Errno` through
/// SystemCalls' one helper, which also retries EINTR (except for `poll`,
/// whose interruption is news: a signal arrived).
///
/// Everything here is async-signal-safe except where noted, because the crash
/// handler uses `write` and `setAttributes`.
public enum TerminalCalls {
    /// The corresponding C function is `isatty`.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The corresponding C function is `tcgetattr`.
    public static func getAttributes(_ descriptor: Int32, into attributes: inout termios) -> Result<Void, Errno> {
        nothingOrErrno { tcgetattr(descriptor, &attributes) }
    }

    /// The corresponding C function is `tcsetattr`.
    public static func setAttributes(_ descriptor: Int32, when: Int32, _ attributes: UnsafePointer<termios>) -> Result<Void, Errno> {
        nothingOrErrno { tcsetattr(descriptor, when, attributes) }
    }

    /// The corresponding C function is `write`: one call, repeated only for
    /// the rest of a partial write or after `EAGAIN`. Returns false when the
    /// terminal is gone (EIO, EBADF, …).
    public static func writeAll(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            switch valueOrErrno({ write(descriptor, base + offset, count - offset) }) {
            case .success(let n):
                offset += n
            case .failure(.resourceTemporarilyUnavailable):
                // Someone made the descriptor non-blocking: wait until it drains.
                _ = FileDescriptor(rawValue: descriptor).wait(for: .writable, timeoutMilliseconds: 100)
            case .failure:
                return false
            }
        }
        return true
    }

    /// The corresponding C function is `read`: the byte count, 0 at end of
    /// file, or the errno (EAGAIN: nothing to read).
    public static func readAvailable(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Result<Int, Errno> {
        valueOrErrno { read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// What `poll` saw on one descriptor.
    public enum Readiness: Sendable { case ready, timedOut, interrupted, hungUp }

    /// Waits for input on one descriptor, to the nanosecond (negative: for
    /// ever): a wait to a frame's deadline in one call. The corresponding C
    /// function is `ppoll`.
    public static func waitUntilReadable(_ descriptor: Int32, timeoutNanoseconds: Int64) -> Readiness {
        switch FileDescriptor(rawValue: descriptor).wait(for: .readable, timeoutNanoseconds: timeoutNanoseconds,
                                                         retryOnInterrupt: false) {
        case .failure(.interrupted): return .interrupted
        case .failure: return .hungUp
        case .success(let events) where events.isEmpty: return .timedOut
        case .success(let events): return events.contains(.readable) ? .ready : .hungUp
        }
    }

    /// The corresponding C call is `ioctl(TIOCGWINSZ)`. Nil when the
    /// descriptor has no window size (or reports 0×0, as some ptys do).
    public static func windowSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard case .success = FileDescriptor(rawValue: descriptor).control(UInt(TIOCGWINSZ), &size),
              size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
