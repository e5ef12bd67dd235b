// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// What `access(2)` checks.
public struct AccessMode: OptionSet, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let exists = AccessMode([])
    public static let read = AccessMode(rawValue: R_OK)
    public static let write = AccessMode(rawValue: W_OK)
    public static let execute = AccessMode(rawValue: X_OK)
}

extension FilePath {
    /// Whether the real user may use the file as `mode` says (`.exists`:
    /// whether it exists). The corresponding C function is `access`.
    public func access(_ mode: AccessMode) -> Result<Void, Errno> {
        withPlatformString { path in nothingOrErrno { LibC.access(path, mode.rawValue) } }
    }

    /// `access(mode)` as a yes or no.
    public func isAccessible(_ mode: AccessMode) -> Bool {
        if case .success = access(mode) { return true }
        return false
    }

    /// The file's type, owner, group, mode and device number (`stat`, following links).
    public func status() -> Result<Stat, Errno> {
        do { return .success(try stat()) } catch { return .failure(error) }
    }

    /// Whether the path names a directory (following links); false when it
    /// names nothing or cannot be examined.
    public var isDirectory: Bool {
        if case .success(let info) = status() { return info.type == .directory }
        return false
    }

    /// The corresponding C function is `mkdir`.
    public func makeDirectory(permissions: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        -> Result<Void, Errno> {
        withPlatformString { path in nothingOrErrno { mkdir(path, permissions.rawValue) } }
    }

    /// Makes the directory and any missing parents (`mkdir -p`); success
    /// when it already exists as a directory.
    public func makeDirectoryTree(permissions: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        -> Result<Void, Errno> {
        if isDirectory { return .success(()) }
        let parent = removingLastComponent()
        if !parent.isEmpty, parent != self, case .failure(let e) = parent.makeDirectoryTree(permissions: permissions) {
            return .failure(e)
        }
        switch makeDirectory(permissions: permissions) {
        case .success: return .success(())
        case .failure(.fileExists) where isDirectory: return .success(())
        case .failure(let e): return .failure(e)
        }
    }

    /// The path with every symbolic link, `.` and `..` resolved. The
    /// corresponding C function is `realpath`.
    public func resolved() -> Result<FilePath, Errno> {
        withPlatformString { path in
            guard let real = realpath(path, nil) else { return .failure(Errno(rawValue: errno)) }
            defer { free(real) }
            return .success(FilePath(String(cString: real)))
        }
    }

    /// Renames the file to the first free name of `NAME.SUFFIX`,
    /// `NAME.SUFFIX-2`, … beside it, never replacing a file, and returns the
    /// new path. The corresponding C functions are `link` and `unlink` (a
    /// hard link fails rather than replace), with `rename` after a check
    /// where the file system has no hard links.
    public func moveAside(suffix: String) -> Result<FilePath, Errno> {
        for attempt in 1...100 {
            let target = FilePath(string + "." + suffix + (attempt == 1 ? "" : "-\(attempt)"))
            let linked = withPlatformString { from in
                target.withPlatformString { to in nothingOrErrno { link(from, to) } }
            }
            switch linked {
            case .success:
                return withPlatformString { path in nothingOrErrno { unlink(path) } }.map { target }
            case .failure(.fileExists):
                continue
            case .failure(.notPermitted), .failure(.notSupported), .failure(.improperLink):
                if target.isAccessible(.exists) { continue }
                return withPlatformString { from in
                    target.withPlatformString { to in nothingOrErrno { rename(from, to) } }
                }.map { target }
            case .failure(let e):
                return .failure(e)
            }
        }
        return .failure(.fileExists)
    }

    /// The corresponding C function is `rmdir`.
    public func removeDirectory() -> Result<Void, Errno> {
        withPlatformString { path in nothingOrErrno { rmdir(path) } }
    }

    /// Opens and closes the file with `mode`: the errno when this process
    /// may not, nil when it may. Unlike `access`, it sees what an open by
    /// this process would see (effective ids, and a preload that redirects
    /// `open`). Non-blocking, so a device node is not waited on.
    public func openError(_ mode: FileDescriptor.AccessMode) -> Errno? {
        do {
            let fd = try FileDescriptor.open(self, mode, options: [.nonBlocking, .closeOnExec])
            try? fd.close()
            return nil
        } catch let error as Errno {
            return error
        } catch {
            return .ioError
        }
    }
}
