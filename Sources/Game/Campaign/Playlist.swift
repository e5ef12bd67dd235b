// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What a game plays and remembers: the campaign's levels in order (a level
import SystemCalls
/// opens when the one before it is won), or one level (a file, a random
/// maze); and the records of past wins, saved after each win.
public final class Playlist {
    /// A level and the key of its record; nil keeps no record (a random maze:
    /// there are too many to remember).
    public struct Entry: Sendable {
        public let level: Level
        public let key: String?

        public init(level: Level, key: String?) {
            self.level = level
            self.key = key
        }
    }

    public let entries: [Entry]
    public let isCampaign: Bool
    public private(set) var current: Int
    private let store: ProgressStore?
    public private(set) var progress: Progress
    private var maySave: Bool
    private var newBest = false
    /// What the player must be told after the game (a bad progress file, a failed save).
    public private(set) var problems: [String] = []

    private init(entries: [Entry], campaign: Bool, store: ProgressStore?) {
        precondition(!entries.isEmpty)
        self.entries = entries
        isCampaign = campaign
        self.store = store
        current = 0
        let loaded = store?.load()
        progress = loaded?.progress ?? Progress()
        maySave = loaded?.maySave ?? false
        if let problem = loaded?.problem { problems.append(problem) }
    }

    /// The bundled campaign, from `start` (0-based) if it is open, else from
    /// the first level not yet won.
    public static func campaign(store: ProgressStore?, start: Int? = nil) -> Playlist {
        campaign(Campaign.levels.map { Entry(level: $0.level, key: $0.key) }, store: store, start: start)
    }

    /// A player's own campaign (`LevelFolder`): each level's record is kept
    /// as a level file's is, so an edited level starts afresh, as does the
    /// one after it.
    public static func campaign(folder levels: [Level], store: ProgressStore?, start: Int? = nil) -> Playlist {
        campaign(levels.map { Entry(level: $0, key: LevelKey.file($0)) }, store: store, start: start)
    }

    private static func campaign(_ entries: [Entry], store: ProgressStore?, start: Int?) -> Playlist {
        let list = Playlist(entries: entries, campaign: true, store: store)
        list.current = start.map { min($0, list.unlocked - 1) } ?? list.firstUnwon
        return list
    }

    /// One level; `key` nil for a level with no record kept.
    public static func single(_ level: Level, key: String?, store: ProgressStore?) -> Playlist {
        Playlist(entries: [Entry(level: level, key: key)], campaign: false, store: store)
    }

    public var level: Level { entries[current].level }

    /// Levels open to play: the first, and each after a won one.
    public var unlocked: Int {
        var n = 1
        while n < entries.count, let key = entries[n - 1].key, progress.records[key] != nil { n += 1 }
        return n
    }

    /// The first level never won (the last when all were).
    var firstUnwon: Int {
        entries.indices.first { entries[$0].key.map { progress.records[$0] == nil } ?? true } ?? entries.count - 1
    }

    /// The campaign as the menus see it; nil for a single level.
    public var flowCampaign: GameFlow.Campaign? {
        isCampaign ? GameFlow.Campaign(current: current, count: entries.count, unlocked: unlocked) : nil
    }

    /// Moves to campaign level `index` (the menus only offer open ones).
    public func select(_ index: Int) {
        precondition(entries.indices.contains(index))
        current = index
        newBest = false
    }

    public var banner: LevelBanner {
        let entry = entries[current]
        let title = isCampaign ? "\(current + 1)/\(entries.count) \(entry.level.title)" : entry.level.title
        return LevelBanner(title: title, best: entry.key.flatMap { progress.records[$0]?.best }, newBest: newBest,
                           levelLabels: isCampaign ? levelLabels : [])
    }

    /// The level menu's lines: number, name, best time or whether it is locked.
    var levelLabels: [String] {
        let open = unlocked
        let width = entries.map(\.level.title.count).max() ?? 0
        return entries.indices.map { i in
            let name = entries[i].level.title
            let padded = name + String(repeating: " ", count: width - name.count)
            let number = (i + 1 < 10 && entries.count >= 10 ? " " : "") + "\(i + 1)"
            let state: String
            if i >= open {
                state = "locked"
            } else if let best = entries[i].key.flatMap({ progress.records[$0]?.best }) {
                state = "best " + Self.seconds(best)
            } else {
                state = "new"
            }
            return "\(number)  \(padded)  \(state)"
        }
    }

    /// Counts a win of the current level in `time` seconds and saves the
    /// records at once (read again first, so a game played meanwhile in
    /// another terminal is not undone); the banner then says if it was a best.
    public func recordWin(time: Double) {
        guard let key = entries[current].key else { return }
        if let store, maySave {
            let fresh = store.load()
            if let problem = fresh.problem { problems.append(problem) }
            progress = fresh.progress
            maySave = fresh.maySave
        }
        newBest = progress.recordWin(key, time: time)
        guard let store, maySave else { return }
        if case .failure(let problem) = store.save(progress) { problems.append(problem.description) }
    }

    /// Seconds with two decimals, cut (not rounded) as the status line and menus show them.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((min(max(value, 0), 9_999_999) * 100 + 1e-6).rounded(.down))
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
