// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation

/// A fresh directory under /tmp for one test, removed with everything in it
/// when the value goes away.
public final class TemporaryDirectory {
    public let path: String

    public init(_ label: String = "tiltmaze-test") {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The names in `sub` (a path inside, or the directory itself), sorted.
    public func names(in sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sub.isEmpty ? path : path + "/" + sub)) ?? []).sorted()
    }
}
