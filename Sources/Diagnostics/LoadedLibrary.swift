// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import LibC

/// Which shared library file this process actually loaded, from
/// `/proc/self/maps`: the file name carries the version a library has no
/// call for (libevdev), and the path shows which copy was picked up.
enum LoadedLibrary {
    /// The resolved path of the first mapped file whose name starts with
    /// `prefix` ("libevdev.so"), or nil when none is mapped.
    static func path(startingWith prefix: String) -> String? {
        for line in Sysfs.lines(of: "/proc/self/maps") ?? [] {
            // The path is the sixth field and may contain spaces: take from the first '/'.
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.split(separator: "/").last?.hasPrefix(prefix) == true else { continue }
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return nil
    }
}
