// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemCalls
import SystemPackage
import LibC

/// The file a recording is made in before it is saved: `FILE.tmp-PID`
/// beside the name asked for, its first word `TILTMAZE HALF-DONE` until
/// the recording is whole. A `kill -9` leaves it behind; the mark makes
/// every replay refuse it (whatever it is renamed to), and the next record
/// beside it removes it once the process that wrote it is gone.
public enum RecordingTemporary {
    /// The temporary's name for `path`, written by process `pid`.
    public static func name(for path: String, pid: Int32) -> String { "\(path).tmp-\(pid)" }

    /// What refuses to record over `path` without `--force`.
    public static func existsMessage(_ path: String) -> String {
        "\(path) exists: choose another name, remove it first, or give --force to replace it"
    }

    /// `header` (encoded) with its first word marked half-done.
    static func markedHalfDone(_ header: [UInt8]) -> [UInt8] {
        let saved = Array(RecordingHeader.savedWord.utf8), halfDone = Array(RecordingHeader.halfDoneWord.utf8)
        precondition(saved.count == halfDone.count && header.starts(with: saved), "a recording's header begins with its word")
        return halfDone + header.dropFirst(saved.count)
    }

    /// Puts a recording's own first word over the mark, at the file's start.
    static func markSaved(_ fd: FileDescriptor) -> Result<Void, Errno> {
        let word = Array(RecordingHeader.savedWord.utf8)
        do {
            let written = try fd.writeAll(toAbsoluteOffset: 0, word)
            return written == word.count ? .success(()) : .failure(.ioError)
        } catch {
            return .failure(error as? Errno ?? .ioError)
        }
    }

    /// A temporary of `path` left by a record that is gone.
    public struct Stale: Equatable, Sendable {
        public let path: String
        public let pid: Int32
    }

    /// Removes the temporaries beside `path` whose writer no longer runs
    /// (no process has its PID) and that are recordings' (half-done or
    /// whole: an earlier TiltMaze left them unmarked); what else has such a
    /// name is left alone. Returns those removed.
    public static func removeStale(beside path: String) -> [Stale] {
        let file = FilePath(path)
        guard let base = file.lastComponent?.string else { return [] }
        let directory = file.removingLastComponent().string
        let folder = directory.isEmpty ? "." : directory
        guard case .success(let names) = DirectoryListing.names(in: folder) else { return [] }
        let prefix = base + ".tmp-"
        var removed: [Stale] = []
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                  let pid = Int32(digits), pid > 0, pid != getpid() else { continue }
            // Alive, or someone else's we may not signal: not ours to remove.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let full = directory.isEmpty ? name : directory + "/" + name
            guard case .success(let start) = FileContents.read(full, limit: RecordingHeader.savedWord.utf8.count),
                  start == Array(RecordingHeader.halfDoneWord.utf8) || start == Array(RecordingHeader.savedWord.utf8) else { continue }
            if unlink(full) == 0 { removed.append(Stale(path: full, pid: pid)) }
        }
        return removed.sorted { $0.path < $1.path }
    }
}
