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
    /// With `replacing` false, a `path` that exists (even one made while
    /// the bytes were written) is left as it is: `.fileExists`.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true) -> Result<Void, Errno> {
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
        if case .failure(let e) = publish(temporary, as: path, replacing: replacing) {
            _ = unlink(temporary)
            return .failure(e)
        }
        return .success(())
    }

    /// Gives the finished file `temporary` the name `path`: renamed over it,
    /// or with `replacing` false, only where nothing has that name, checked
    /// by the kernel as the name is made (a hard link, then the temporary's
    /// name removed), so a file made meanwhile is never replaced. A file
    /// system without hard links (FAT) is checked just before the rename.
    /// The temporary is left in place on failure.
    public static func publish(_ temporary: String, as path: String, replacing: Bool) -> Result<Void, Errno> {
        guard !replacing else { return nothingOrErrno { rename(temporary, path) } }
        switch nothingOrErrno({ link(temporary, path) }) {
        case .success:
            _ = unlink(temporary)
            return .success(())
        case .failure(let e) where e == .notPermitted || e == .notSupported || e == .tooManyLinks:
            var status = stat()
            if lstat(path, &status) == 0 { return .failure(.fileExists) }
            return nothingOrErrno { rename(temporary, path) }
        case .failure(let e):
            return .failure(e)
        }
    }
}
