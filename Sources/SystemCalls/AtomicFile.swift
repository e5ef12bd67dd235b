// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Writing a file so that readers see the old contents or the new, never
/// half of it: the bytes go to a temporary file beside it, which is synced
/// and renamed over the target. A failure removes the temporary file and
/// leaves the target as it was.
public enum AtomicFile {
    /// Writes `bytes` to `path`. A file it replaces keeps its permission
    /// bits (a player's 0600 settings stay 0600); a new file is 0644 less
    /// the umask. The corresponding C functions are `stat`, `open`,
    /// `fchmod`, `write`, `fsync`, `rename` and, on failure, `unlink`.
    /// With `replacing` false, a `path` that exists (even one made while
    /// the bytes were written) is left as it is: `.fileExists`.
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, replacing: Bool = true) -> Result<Void, Errno> {
        let temporary = "\(path).tmp-\(getpid())"
        let kept = replacing ? permissionBits(of: path) : nil
        let fd: FileDescriptor
        do {
            // Owner-only until it has the replaced file's bits: its contents are never more readable than the old file's.
            let made: FilePermissions = kept == nil ? [.ownerReadWrite, .groupRead, .otherRead] : [.ownerReadWrite]
            fd = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                         permissions: made)
        } catch {
            return .failure(error as? Errno ?? .ioError)
        }
        do {
            // fchmod, unlike the mode given to open, is not cut by the umask: the bits are the old file's exactly.
            if let kept { try nothingOrErrno { fchmod(fd.rawValue, kept) }.get() }
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

    /// The read, write and execute bits of the regular file at `path`
    /// (following a link, as a reader of the file would), or nil when
    /// there is none. Set-id and sticky bits are not carried over: a data
    /// file written anew should not become a set-user-id program.
    static func permissionBits(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status.st_mode & 0o777
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
