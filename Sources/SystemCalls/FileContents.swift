// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage

/// Reading a whole (small) file: a level, a sysfs attribute, a udev record.
public enum FileContents {
    /// The file's bytes, at most `limit` of them, or the errno that stopped
    /// the open or a read. The corresponding C functions are `open`, `read`
    /// and `close`.
    public static func read(_ path: String, limit: Int = 1 << 20) -> Result<[UInt8], Errno> {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            return .failure(error as? Errno ?? .ioError)
        }
        defer { try? fd.close() }
        return read(from: fd, limit: limit)
    }

    /// What is left to read from an open file, at most `limit` bytes, or
    /// the errno that stopped a read. The corresponding C function is `read`.
    public static func read(from fd: FileDescriptor, limit: Int = 1 << 20) -> Result<[UInt8], Errno> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            do {
                let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
                if n == 0 { break }
                bytes += chunk[0 ..< min(n, limit - bytes.count)]
            } catch {
                return .failure(error as? Errno ?? .ioError)
            }
        }
        return .success(bytes)
    }
}
