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
/// keeps one as a stored property closes it when the object goes. (The
/// pattern of swift-system's own owned handles, such as `IORing`.)
public struct OwnedDescriptor: ~Copyable, Sendable {
    /// The descriptor, for the calls that take one; never close it: this
    /// value does that.
    public let descriptor: FileDescriptor

    /// Takes ownership of `descriptor`.
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

    /// The number, for C calls that take an `int`.
    public var rawValue: CInt { descriptor.rawValue }

    deinit {
        // Closed whatever close says: on Linux the number is free after the call.
        try? descriptor.close()
    }
}
