// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Reading the small text files the kernel and udev keep (`/sys`,
/// `/run/udev/data`, `/proc/self/maps`) and listing their directories: the
/// one reader every module uses. A file that cannot be read is nil, a
/// directory that cannot be listed is empty: these describe hardware that
/// may simply not be there.
public enum Sysfs {
    /// Most bytes read from one file; sysfs attributes are at most a page.
    public static let readLimit = 64 * 1024

    /// The whole file as text, or nil when it cannot be opened or read.
    public static func text(of path: String) -> String? {
        guard case .success(let bytes) = FileContents.read(path, limit: readLimit) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's first line without its newline (an attribute's value), or nil.
    public static func firstLine(of path: String) -> String? {
        text(of: path).map { String($0.prefix { $0 != "\n" }) }
    }

    /// The file's lines, or nil when it cannot be read.
    public static func lines(of path: String) -> [Substring]? {
        text(of: path).map { $0.split(separator: "\n", omittingEmptySubsequences: false) }
    }

    /// The names in a directory, without `.` and `..`, unsorted; empty when
    /// it cannot be listed.
    public static func entries(of directory: String) -> [String] {
        (try? DirectoryListing.names(in: directory).get()) ?? []
    }
}
