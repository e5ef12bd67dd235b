// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

/// Holds what is written to standard error while a full-screen display is
/// up, and gives it back once the screen is restored.
///
/// Libraries write there on their own: libiio 0.24 prints "WARNING:
/// High-speed mode not enabled" when it makes a buffer, and a line per
/// channel when it cannot disable one whose device was unplugged. Written
/// to a terminal mid-game, that text lands in the picture, and the game
/// redraws only the cells it changed. So fd 2 goes to an unlinked temporary
/// file while the display is up; `finish()` puts fd 2 back and returns the
/// lines written meanwhile, for the caller to pass on.
public final class StandardErrorCapture {
    private let saved: Int32
    private let file: Int32
    private var finished = false

    /// Starts capturing; nil (and nothing changed) when no temporary file can be made.
    public init?() {
        var template = Array("/tmp/tiltmaze-stderr-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return nil }
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        guard saved >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            if saved >= 0 { close(saved) }
            close(file)
            return nil
        }
        self.saved = saved
        self.file = file
    }

    /// Puts standard error back and returns the lines written to it meanwhile.
    /// The corresponding C functions are `dup2` and `lseek`.
    public func finish() -> [String] {
        guard !finished else { return [] }
        finished = true
        _ = dup2(saved, STDERR_FILENO)
        close(saved)
        defer { close(file) }
        guard lseek(file, 0, SEEK_SET) == 0,
              case .success(let bytes) = FileContents.read(from: FileDescriptor(rawValue: file)) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    deinit { _ = finish() }
}
