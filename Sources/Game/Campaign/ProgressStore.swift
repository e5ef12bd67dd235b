// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import LibC
import SystemCalls

/// A level's record: its best time and how often it was won.
public struct LevelRecord: Sendable, Equatable {
    public var best: Double
    public var wins: Int

    public init(best: Double, wins: Int) {
        self.best = best
        self.wins = wins
    }
}

/// What the player has done, level by level: the campaign's progress (a
/// level opens when the one before it is won) and the best times.
/// Records are keyed by `LevelKey`.
public struct Progress: Sendable, Equatable {
    public var records: [String: LevelRecord]

    public init(records: [String: LevelRecord] = [:]) { self.records = records }

    /// Counts a win of `key` in `time` seconds; whether it is a new best.
    @discardableResult
    public mutating func recordWin(_ key: String, time: Double) -> Bool {
        guard var record = records[key] else {
            records[key] = LevelRecord(best: time, wins: 1)
            return true
        }
        record.wins += 1
        let better = time < record.best
        if better { record.best = time }
        records[key] = record
        return better
    }
}

/// The progress file: `progress.json` in `$XDG_STATE_HOME/tiltmaze`, else
/// `~/.local/state/tiltmaze` (state, not settings: the XDG rules put it
/// there). Written atomically after each win; a file that cannot be read
/// or is not a progress file is kept aside (`progress.json.bad`, …), the
/// player is told, and play goes on from nothing.
public struct ProgressStore: Sendable {
    public let directory: String
    public var path: String { directory + "/progress.json" }

    public init(directory: String) { self.directory = directory }

    /// The store the environment names; nil when neither `XDG_STATE_HOME`
    /// nor `HOME` is an absolute path (a relative one is ignored, as the XDG
    /// rules say), or when root is refused the folder (`folder` says why).
    public static func standard(environment: [String: String],
                                effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> ProgressStore? {
        folder(environment: environment, effectiveUID: effectiveUID).path.map(ProgressStore.init(directory:))
    }

    /// The folder the environment names, and whether this process may use it (`EnvironmentFolder`).
    public static func folder(environment: [String: String],
                              effectiveUID: uid_t = EnvironmentFolder.effectiveUID) -> EnvironmentFolder {
        EnvironmentFolder.choose("XDG_STATE_HOME", else: ".local/state", environment: environment, effectiveUID: effectiveUID)
    }

    /// What is kept there, as a refusal's words put it.
    public static let contents = "progress and best times"

    public struct Loaded: Sendable {
        public var progress: Progress
        /// A bad file set aside (or left where it was), for the player to hear.
        public var problem: String?
        /// False when a bad file could not be set aside: saving would lose it.
        public var maySave: Bool
    }

    public func load() -> Loaded {
        let kept = KeptFile.load(path, limit: 1 << 20, what: "a progress file", instead: "started a new one", defaults: Progress(),
                                 decode: ProgressFile.decode)
        return Loaded(progress: kept.value, problem: kept.problem, maySave: kept.maySave)
    }

    public func save(_ progress: Progress) -> Result<String, KeptFile.SaveProblem> {
        KeptFile.save(ProgressFile.encode(progress), to: path, directory: directory, what: "progress")
    }
}

/// The JSON form:
///
///     {
///       "format" : "tiltmaze-progress",
///       "levels" : {
///         "campaign/01-warm-up" : { "best_s" : 9.875, "wins" : 2 }
///       },
///       "version" : 1
///     }
enum ProgressFile {
    static let format = "tiltmaze-progress"
    static let version = 1

    private struct Contents: VersionedContents {
        var format: String?
        var version: Int?
        var levels: [String: Record]?
    }

    private struct Record: Codable {
        var best_s: Double?
        var wins: Int?
    }

    static func encode(_ progress: Progress) -> [UInt8] {
        // Times to a tenth of a millisecond: game time is a count of physics
        // steps, and its binary tail (0.8791667369999999) is noise to a reader.
        let levels = progress.records.mapValues { Record(best_s: max(($0.best * 10_000).rounded(), 1) / 10_000, wins: $0.wins) }
        // Unescaped slashes: the keys (`campaign/01-warm-up`) are read by people too.
        return KeptJSON.encode(Contents(format: format, version: version, levels: levels), escapingSlashes: false)
    }

    static func decode(_ bytes: [UInt8]) -> Result<Progress, KeptFile.DecodeProblem> {
        let contents: Contents
        switch KeptJSON.decode(Contents.self, from: bytes, format: format, version: version) {
        case .success(let read): contents = read
        case .failure(let problem): return .failure(problem)
        }
        var records: [String: LevelRecord] = [:]
        for (key, record) in contents.levels ?? [:] {
            guard let best = record.best_s, best.isFinite, best > 0 else {
                return .failure(.init("level \"\(key)\": \"best_s\" should be a positive number of seconds"))
            }
            guard let wins = record.wins, wins >= 1 else {
                return .failure(.init("level \"\(key)\": \"wins\" should be a whole number from 1"))
            }
            records[key] = LevelRecord(best: best, wins: wins)
        }
        return .success(Progress(records: records))
    }
}
