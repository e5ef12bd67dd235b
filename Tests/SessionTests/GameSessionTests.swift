// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Session
import Handoff
import MotionCore
import TestSupport
@testable import Game

/// The session driven by hand: a physics loop never started (its ticks are
/// called here), no screen, no thread.
@Suite("Game session")
struct GameSessionTests {
    /// Two corridors whose exits are four cells right of the start, told apart by their titles.
    let levels = try! ["First", "Second"].map { title in
        try LevelParser(file: title).parse("title: \(title)\nmaze:\n########\n#S    E#\n########\n")
    }

    /// A session of the two-level campaign kept in `store`, its board lowered on the right by `roll`.
    final class Table {
        let ring = SPSCRing<MotionSample>(capacity: 64)
        let physics: PhysicsLoop
        let session: GameSession
        var time: Int64 = 1_000_000_000

        init(playlist: Playlist, level: Level) {
            physics = PhysicsLoop(level: level, samples: ring, rate: 100, estimator: TiltEstimator(cutoffHz: 1000))
            session = GameSession(physics: physics, playlist: playlist)
        }

        /// `n` physics steps of 10 ms with the board at `roll`, then one frame.
        @discardableResult
        func play(_ n: Int, roll: Double) -> WorldSnapshot {
            for _ in 0 ..< n {
                time += 10_000_000
                ring.push(MotionSample(timestamp: time, acceleration: -gravity(right: roll), fields: .acceleration))
                physics.tick(elapsed: 10_000_000)
            }
            return session.frame(now: time, interrupted: false)
        }

        /// Plays towards the exit until the frame says won (at most 20 s of game).
        func win() -> WorldSnapshot? {
            for _ in 0 ..< 200 {
                let snapshot = play(10, roll: 0.3)
                if snapshot.status == .won { return snapshot }
            }
            return nil
        }

        /// Moves the open menu's cursor to `item` and chooses it.
        func choose(_ item: GameMenu.Item) throws {
            let menu = try #require(session.menu)
            let index = try #require(menu.items.firstIndex(of: item), "\(item) not in \(menu.items)")
            for _ in 0 ..< index - menu.selected { session.handle(.down) }
            session.handle(.select)
        }
    }

    @Test("a game that ends before its first frame keeps the calibration it started from, not a level one")
    func outcomeBeforeAnyFrame() {
        let tilted = TiltReference(capturing: Vector3(0, -3, -9.3))
        let physics = PhysicsLoop(level: Fixtures.level, samples: SPSCRing(capacity: 4),
                                  estimator: TiltEstimator(reference: tilted))
        let session = GameSession(physics: physics)
        #expect(session.outcome.calibration.reference == tilted)
    }

    @Test("a win is recorded once, saved at once, and the banner changes with it")
    func winRecordedOnce() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        let table = Table(playlist: .campaign(folder: levels, store: store), level: levels[0])
        let banners = table.session.bannerChanges
        let won = try #require(table.win(), "the ball never reached the exit")
        #expect(table.session.outcome.winningTime == won.elapsed)
        #expect(table.session.bannerChanges == banners + 1)
        #expect(table.session.banner.best == won.elapsed && table.session.banner.newBest)
        #expect(table.session.menu?.menu == .won)
        // Frames go on showing the win; it is not counted again.
        table.play(5, roll: 0.3)
        #expect(table.session.bannerChanges == banners + 1)
        // Saved: the next run finds level 2 open and starts there.
        let next = Playlist.campaign(folder: levels, store: store)
        #expect(next.unlocked == 2 && next.current == 1)
        #expect(next.progress.records.count == 1)
    }

    @Test("Next level puts the second level in play: the physics has it, the screen is told to load it")
    func levelChange() throws {
        let dir = TemporaryDirectory()
        let table = Table(playlist: .campaign(folder: levels, store: ProgressStore(directory: dir.path)), level: levels[0])
        _ = try #require(table.win())
        let loads = table.session.levelChanges
        try table.choose(.nextLevel)
        #expect(table.session.levelChanges == loads + 1)
        #expect(table.session.level.title == "Second" && table.session.outcome.levelTitle == "Second")
        #expect(table.session.menu == nil)
        let fresh = table.play(1, roll: 0)
        #expect(fresh.status == .playing && fresh.elapsed < 0.1)
        #expect(table.session.outcome.winningTime == nil)
        #expect(table.session.banner.title.hasPrefix("2/2 "))
    }

    @Test("a restart starts a new game whose win counts again")
    func restartCountsAgain() throws {
        let table = Table(playlist: .single(levels[0], key: nil, store: nil), level: levels[0])
        let first = try #require(table.win())
        let banners = table.session.bannerChanges
        table.session.handle(.restart)
        #expect(table.session.menu == nil)
        let restarted = table.play(1, roll: 0)
        #expect(restarted.status == .playing && restarted.elapsed < first.elapsed)
        #expect(table.session.outcome.winningTime == nil)
        _ = try #require(table.win())
        #expect(table.session.bannerChanges == banners + 1)
    }

    @Test("the pause menu stops the physics; q ends the session")
    func pauseAndQuit() {
        let table = Table(playlist: .single(levels[0], key: nil, store: nil), level: levels[0])
        table.play(10, roll: 0.3)
        table.session.handle(.pause)
        #expect(table.session.menu?.menu == .paused)
        table.play(1, roll: 0.3)  // the frame asks for the pause, the next tick takes it
        let paused = table.play(1, roll: 0.3)
        #expect(paused.status == .paused)
        #expect(table.play(10, roll: 0.3).ball == paused.ball)
        table.session.handle(.pause)
        table.play(1, roll: 0.3)
        #expect(table.play(10, roll: 0.3).ball != paused.ball)
        #expect(!table.session.isOver)
        table.session.handle(.quit)
        #expect(table.session.isOver)
    }

    @Test("a controller away pauses the physics like the menu does")
    func interruptionPauses() {
        let table = Table(playlist: .single(levels[0], key: nil, store: nil), level: levels[0])
        table.play(10, roll: 0.3)
        _ = table.session.frame(now: table.time, interrupted: true)
        #expect(table.physics.isPauseRequested)
        table.physics.tick(elapsed: 10_000_000)
        #expect(table.physics.snapshots.read().value.status == .paused)
        _ = table.session.frame(now: table.time, interrupted: false)
        #expect(!table.physics.isPauseRequested)
    }

    @Test("Calibrate here tells the new neutral once the physics took it, for a while")
    func calibrateHere() throws {
        let table = Table(playlist: .single(levels[0], key: nil, store: nil), level: levels[0])
        table.play(20, roll: 0.2)
        table.session.handle(.select)
        try table.choose(.calibrateHere)
        #expect(table.session.message(at: table.time) == nil, "told before the physics took it")
        table.play(1, roll: 0.2)
        let told = try #require(table.session.message(at: table.time))
        #expect(told.hasPrefix("Neutral: "))
        #expect(table.session.outcome.calibration.reference.isEnabled)
        #expect(table.session.message(at: table.time + GameSession.messageDuration) == nil)
    }

    @Test("F12 asks the frame loop for a picture; its result is shown")
    func screenshot() {
        let table = Table(playlist: .single(levels[0], key: nil, store: nil), level: levels[0])
        table.session.handle(.screenshot)
        #expect(table.session.screenshotWanted)
        table.session.screenshotTaken("saved shot.png", now: 5)
        #expect(!table.session.screenshotWanted && table.session.message(at: 6) == "saved shot.png")
        table.session.handle(.screenshot)
        table.session.screenshotTaken(nil, now: 7)
        #expect(!table.session.screenshotWanted && table.session.message(at: 8) == "saved shot.png")
    }
}
