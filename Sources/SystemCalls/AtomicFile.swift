// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Writing a file so that readers see the old contents or the new, never
/// half of it: the bytes go to a temporary file beside it, which is synced
/// and renamed over the target. A failure removes the temporary file and
/// leaves the target as it was.
public enum AtomicFile {
    /// Writes `bytes` to `path` (mode 0644). The corresponding C functions
    /// are `open`, `write`, `fsync`, `rename` and, on failure, `unlink`.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Result<Void, Errno> {
        let temporary = "\(path).tmp-\(getpid())"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            return .failure(error as? Errno ?? .ioError)
        }
        do {
            _ = try fd.writeAll(bytes)
            try nothingOrErrno { fsync(fd.rawValue) }.get()
            try fd.close()
        } catch {
            try? fd.close()
            _ = unlink(temporary)
            return .failure(error as? Errno ?? .ioError)
        }
        if case .failure(let e) = nothingOrErrno({ rename(temporary, path) }) {
            _ = unlink(temporary)
            return .failure(e)
        }
        return .success(())
    }
}
