// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage

/// A level file that could not be read at all (as opposed to one that does
/// not parse, which is a `LevelError`).
public struct LevelFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): cannot read the level file: \(reason)" }
    /// Read, but not text: a problem with what the file holds, not with getting at it.
    public var isNotText: Bool { reason == Self.notText }
    static let notText = "it is not UTF-8 text"
}

/// Levels on disk.
public enum LevelFile {
    /// The bundled level when `path` is nil, else the level in that file.
    /// Fails with `LevelFileError` when the file cannot be read or is not
    /// UTF-8, and with `LevelError` (file:line:column) when it does not parse.
    public static func load(_ path: String?) throws -> Level {
        guard let path else { return BundledLevels.defaultLevel() }
        let bytes: [UInt8]
        switch FileContents.read(path) {
        case .success(let read): bytes = read
        case .failure(.noSuchFileOrDirectory): throw LevelFileError(path: path, reason: "no such file")
        case .failure(.permissionDenied): throw LevelFileError(path: path, reason: "permission denied")
        case .failure(let errno): throw LevelFileError(path: path, reason: "\(errno)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LevelFileError(path: path, reason: LevelFileError.notText)
        }
        return try LevelParser(file: path).parse(text)
    }
}
