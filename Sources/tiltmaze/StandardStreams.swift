// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls

/// Standard output and error written directly, whole.
///
/// The command line speaks through these rather than Foundation's `FileHandle`
/// so that the program needs only FoundationEssentials: a static build then
/// carries no ICU tables (about 40 MB), which keeps the Debian package small.
enum StandardStream {
    case output, error

    var isTerminal: Bool { TerminalCalls.isTerminal(descriptor) }

    private var descriptor: Int32 { self == .output ? 1 : 2 }

    /// A closed pipe or a full disk ends the write: nothing more can be said on this stream.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            _ = TerminalCalls.writeAll(descriptor, base, bytes.count)
        }
    }
}

