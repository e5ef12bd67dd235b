// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage

/// A file descriptor with one owner, closed when that owner lets it go.
///
/// swift-system's `FileDescriptor` is a plain number that anyone may copy
/// and must be closed by hand, on every path: an initialiser that opens a
/// node and then fails a check wrote `try? fd.close()` before each throw.
/// This one cannot be copied (`~Copyable`), so it has exactly one owner, and
/// it closes itself in `deinit`: whether an initialiser returns or throws
/// half way, the descriptor it opened is closed exactly once. A class that
/// keeps one as a stored property closes it when the object goes.
///
/// The number is only lent, for the length of a call (`withDescriptor`), as
/// swift-system's `Mach.Port` lends its name; `close()` and `relinquish()`
/// consume the value, so nothing can use it after.
public struct OwnedDescriptor: ~Copyable, Sendable {
    private let descriptor: FileDescriptor

    /// Takes ownership of `descriptor`: nothing else may close it.
    public init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Opens `path`. The corresponding C function is `open`.
    public static func open(_ path: FilePath, _ mode: FileDescriptor.AccessMode,
                            options: FileDescriptor.OpenOptions = [.closeOnExec]) throws(Errno) -> OwnedDescriptor {
        do {
            return OwnedDescriptor(try FileDescriptor.open(path, mode, options: options))
        } catch let error as Errno {
            throw error
        } catch {
            throw .ioError
        }
    }

    /// Lends the descriptor to `body`, which must neither close it nor keep
    /// it past the call.
    public borrowing func withDescriptor<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(E) -> R {
        try body(descriptor)
    }

    /// Lends the descriptor to a call that fails with an errno. On a
    /// descriptor this value holds open, EBADF or EFAULT can only mean a bug
    /// in this program (a number closed behind its owner's back, a bad
    /// pointer), which no caller can handle: it traps, as swift-nio does.
    public borrowing func withDescriptor<T>(_ body: (FileDescriptor) -> Result<T, Errno>) -> Result<T, Errno> {
        let result = body(descriptor)
        if case .failure(let errno) = result { preconditionIsNotProgrammingError(errno) }
        return result
    }

    /// Closes it now, saying whether close failed (a value let go closes
    /// quietly). On Linux the number is free after the call either way.
    public consuming func close() throws(Errno) {
        let descriptor = self.descriptor
        discard self
        do { try descriptor.close() } catch let error as Errno { throw error } catch { throw .ioError }
    }

    /// Gives the descriptor up, unclosed: its closing is the caller's.
    public consuming func relinquish() -> FileDescriptor {
        let descriptor = self.descriptor
        discard self
        return descriptor
    }

    deinit {
        // Closed whatever close says: on Linux the number is free after the call.
        try? descriptor.close()
    }
}

/// Traps on an errno that a call on an open descriptor of this program's
/// own returns only when the program is wrong (swift-nio's
/// `preconditionIsNotUnacceptableErrno`): EBADF, EFAULT.
@inlinable
public func preconditionIsNotProgrammingError(_ errno: Errno, file: StaticString = #fileID, line: UInt = #line) {
    precondition(errno != .badFileDescriptor && errno != .badAddress,
                 "a call on an owned descriptor failed with \(errno): a bug in TiltMaze", file: file, line: line)
}
