// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import SystemCalls
import SystemPackage
import LibC

/// Reading and writing recordings on disk; the format itself is `Recording`'s.
public enum RecordingFile {
    /// The largest file read: an hour at 1 kHz is about 200 MB.
    public static let sizeLimit = 1 << 30

    /// The recording or CSV file at `path`; an error names the file, the
    /// line or byte, and what was expected there.
    public static func load(_ path: String) throws(SourceError) -> Recording {
        let bytes: [UInt8]
        switch FileContents.read(path, limit: sizeLimit + 1) {
        case .success(let b): bytes = b
        case .failure(let errno):
            throw SourceError(description: "cannot read the recording \(path): \(errno)", kind: .unreadable)
        }
        guard bytes.count <= sizeLimit else {
            throw SourceError(description: "\(path) is larger than \(sizeLimit >> 20) MB: split it, or record fewer seconds", kind: .malformed)
        }
        do {
            return try Recording.parse(bytes, name: FilePath(path).lastComponent?.string ?? path)
        } catch {
            throw SourceError(description: "\(path): \(error)", kind: .malformed)
        }
    }
}

/// Writes a recording as it is made: header first, then samples in
/// batches. The bytes go to a temporary file beside the target, renamed
/// over it by `finish()`, so an interrupted or failed recording never leaves
/// a half-written file under the name asked for.
public final class RecordingWriter {
    public let path: String
    private let temporary: String
    private var fd: FileDescriptor?
    private var pending: [UInt8] = []
    public private(set) var samplesWritten = 0
    public private(set) var bytesWritten = 0
    /// The header's version decides the samples' form.
    public let header: RecordingHeader

    /// Whether `finish()` may put the recording over a file already named `path`.
    public let replacing: Bool

    /// Starts a recording for `path`. With `replacing` false a file of
    /// that name is refused now, before anything is recorded, and again
    /// when the recording is saved (one made meanwhile is kept too).
    public init(path: String, header: RecordingHeader, replacing: Bool = true) throws(SourceError) {
        self.path = path
        self.header = header
        self.replacing = replacing
        temporary = RecordingTemporary.name(for: path, pid: getpid())
        var status = stat()
        if !replacing, lstat(path, &status) == 0 {
            throw SourceError(description: RecordingTemporary.existsMessage(path), kind: .unwritable)
        }
        do {
            fd = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw SourceError(description: "cannot write the recording next to \(path) (\(temporary)): \(error)", kind: .unwritable)
        }
        // Marked half-done until saved: a temporary left by a killed run is refused by every replay.
        pending = RecordingTemporary.markedHalfDone(header.encoded)
        pending.reserveCapacity(64 * 1024)
    }

    deinit { abandon() }

    /// Adds a sample; the bytes reach the file in batches.
    public func append(_ sample: MotionSample) throws(SourceError) {
        sample.appendRecorded(to: &pending, withMagneticField: header.hasMagnetometer)
        samplesWritten += 1
        if pending.count >= 60 * 1024 { try flush() }
    }

    public func flush() throws(SourceError) {
        guard let fd, !pending.isEmpty else { return }
        do {
            _ = try pending.withUnsafeBytes { try fd.writeAll($0) }
            bytesWritten += pending.count
            pending.removeAll(keepingCapacity: true)
        } catch {
            abandon()
            throw SourceError(description: "writing the recording \(path) failed: \(error); nothing was saved", kind: .unwritable)
        }
    }

    /// Syncs the file and gives it its name.
    public func finish() throws(SourceError) {
        try flush()
        guard let fd else { throw SourceError(description: "the recording \(path) was abandoned", kind: .unwritable) }
        self.fd = nil
        // Its first word made a recording's, then synced: the name given only to a whole, marked file.
        let marked = RecordingTemporary.markSaved(fd)
        let synced = marked.flatMap { _ in nothingOrErrno { fsync(fd.rawValue) } }
        try? fd.close()
        let renamed = synced.flatMap { _ in AtomicFile.publish(temporary, as: path, replacing: replacing) }
        if case .failure(let errno) = renamed {
            _ = unlink(temporary)
            if errno == .fileExists {
                throw SourceError(description: "\(path) was made while recording: it is kept, and nothing was saved", kind: .unwritable)
            }
            throw SourceError(description: "saving the recording \(path) failed: \(errno); nothing was saved", kind: .unwritable)
        }
    }

    /// Drops the temporary file; the target is left as it was.
    public func abandon() {
        guard let fd else { return }
        try? fd.close()
        self.fd = nil
        _ = unlink(temporary)
    }
}
