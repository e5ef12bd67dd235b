// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// The names in a directory, for callers that must tell a missing or
/// unreadable folder from an empty one (a folder of levels the player named).
public enum DirectoryListing {
    /// The names without `.` and `..`, unsorted, or the errno `opendir` or
    /// `readdir` stopped on. The corresponding C functions are `opendir`,
    /// `readdir` and `closedir`.
    public static func names(in directory: String) -> Result<[String], Errno> {
        guard let dir = opendir(directory) else { return .failure(Errno(rawValue: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            // readdir returns nil both at the end and on an error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(dir) else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { return .failure(Errno(rawValue: errno)) }
        return .success(names)
    }
}
