// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage

/// A pipe used to wake a thread sleeping in `poll`: one thread writes a
/// byte, the sleeper sees its read end readable. Both ends non-blocking and
/// close-on-exec from the start (`pipe2`), so a failure cannot leave one
/// end half set up. It has one owner (`~Copyable`) and closes both ends
/// when that owner lets it go.
public struct WakeupPipe: ~Copyable, Sendable {
    public let readEnd: FileDescriptor
    public let writeEnd: FileDescriptor

    /// The corresponding C function is `pipe2(O_NONBLOCK | O_CLOEXEC)`.
    public init() throws(Errno) {
        (readEnd, writeEnd) = try FileDescriptor.pipe(options: [.nonBlocking, .closeOnExec])
    }

    /// Writes one byte; a full pipe already wakes its reader, so EAGAIN is fine.
    public func wake() {
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { try? writeEnd.write($0) }
    }

    /// Reads until nothing is left, so the next `poll` sleeps again.
    public func drain() {
        var scratch: (UInt64, UInt64) = (0, 0)
        while let n = try? withUnsafeMutableBytes(of: &scratch, { try readEnd.read(into: $0) }), n > 0 {}
    }

    deinit {
        try? readEnd.close()
        try? writeEnd.close()
    }
}
