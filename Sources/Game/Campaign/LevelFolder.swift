// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage

/// A folder that cannot be played as a campaign, with why and what to do.
public struct LevelFolderError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): cannot play this folder as a campaign: \(reason)" }
}

/// A player's own campaign: a folder of level files, played in the order of
/// their names (`01-….txt`, `02-….txt`, as the bundled campaign is kept).
public enum LevelFolder {
    /// Most levels a folder may hold: the level menu lists them all at once,
    /// and with its headline and Back that fills a 24-row terminal.
    public static let maximumLevels = 16

    /// Every `*.txt` level in `directory`, sorted by name. Fails with
    /// `LevelFolderError` when the folder cannot be listed or holds no level
    /// (or too many), and with the first bad file's `LevelFileError` or
    /// `LevelError` (file:line:column), so the player can fix it.
    public static func load(_ directory: String) throws -> [Level] {
        let names: [String]
        switch DirectoryListing.names(in: directory) {
        case .success(let all): names = all.filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }.sorted()
        case .failure(.noSuchFileOrDirectory): throw LevelFolderError(path: directory, reason: "no such folder")
        case .failure(.notDirectory): throw LevelFolderError(path: directory, reason: "it is a file; give a level file with --level")
        case .failure(.permissionDenied): throw LevelFolderError(path: directory, reason: "permission denied")
        case .failure(let errno): throw LevelFolderError(path: directory, reason: "\(errno)")
        }
        guard !names.isEmpty else {
            throw LevelFolderError(path: directory, reason: "it holds no level files (NAME.txt; the format is in docs/playing.md, \"Level files\")")
        }
        guard names.count <= maximumLevels else {
            throw LevelFolderError(path: directory, reason: "it holds \(names.count) level files; a campaign has at most \(maximumLevels)")
        }
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return try names.map { try LevelFile.load(folder + "/" + $0) }
    }
}
