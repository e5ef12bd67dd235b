// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Session
import Controls
import Game
import MotionCore
import Realtime
import Displays
@testable import Render
import PNG
import Foundation
import TestSupport

/// The frame loop with a recording display and scripted input: the menus,
/// pads, pauses, notices, statistics and the frame clock, without a terminal.
@Suite("Frame loop")
struct FrameLoopTests {
    func loop(_ display: RecordingDisplay, source: ControlledSource = ControlledSource(), pads: [any PadSource] = [],
              statistics: Bool = false) -> FrameLoop {
        let physics = PhysicsLoop(level: Fixtures.level, samples: source.samples)
        return FrameLoop(display: display, physics: physics, feed: SensorFeed(source: source, board: source), pads: pads, framePeriod: 5_000_000,
                         showStatistics: statistics, statisticsInterval: 50_000_000)
    }

    @Test("each frame's deadline is one period after the last, or a whole number of periods after a stall")
    func frameClock() throws {
        let display = RecordingDisplay { _, index in index == 30 ? [.character(UInt8(ascii: "q"))] : [] }
        let frameLoop = loop(display)
        _ = try frameLoop.run()
        #expect(!display.gaveUp)
        let steps = zip(display.deadlines, display.deadlines.dropFirst()).map { $1 - $0 }
        #expect(steps.count >= 30)
        #expect(steps.allSatisfy { $0 > 0 && $0 % 5_000_000 == 0 }, "\(steps)")
        #expect(frameLoop.frameLateness.totalCount == UInt64(display.frames.count))
    }

    @Test("p opens the pause menu and the physics stops; Enter on Resume closes it and play goes on; q quits")
    func pauseMenu() throws {
        var step = 0
        let display = RecordingDisplay { frame, _ in
            switch step {
            case 0: step = 1; return [.character(UInt8(ascii: "p"))]
            case 1 where frame.menu == MenuState(.paused) && frame.snapshot.status == .paused: step = 2; return [.enter]
            case 2 where frame.menu == nil && frame.snapshot.status == .playing: step = 3; return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        let outcome = try loop(display).run()
        #expect(!display.gaveUp, "stopped at step \(step)")
        #expect(step == 3)
        var expected = GameSession.Outcome()
        expected.levelTitle = outcome.levelTitle
        #expect(outcome == expected)
    }

    @Test("a pad's buttons reach the menus: south opens, down moves, south on Quit ends the game")
    func padButtons() throws {
        let pad = ScriptedPad()
        let display = RecordingDisplay { frame, _ in
            if frame.menu == nil { pad.queued = [.south] }
            else if frame.menu?.selectedItem == .resume { pad.queued = [.down, .down, .down, .down] }
            else if frame.menu?.selectedItem == .quit { pad.queued = [.south] }
            return []
        }
        _ = try loop(display, pads: [pad]).run()
        #expect(!display.gaveUp)
        #expect(display.frames.contains { $0.menu == MenuState(.paused, selected: 4) })
    }

    @Test("Calibrate here takes the board's tilt as the neutral: the ball then stays put, the player is told, the outcome carries it")
    func calibrateHere() throws {
        var step = 0
        var display: RecordingDisplay!
        var frameLoop: FrameLoop!
        display = RecordingDisplay { frame, _ in
            // The calibration comes beside the snapshot: the session keeps the newest in its outcome.
            let reference = frameLoop.session.outcome.calibration.reference
            switch step {
            case 0: step = 1; return [.right]   // tilt the board 0.3 rad to the right
            // Still level as the neutral: the gravity the physics uses is the gravity measured.
            case 1 where abs(frame.snapshot.gravity.x) > 1: step = 2; return [.character(UInt8(ascii: "p")), .down, .down, .enter]
            case 2 where reference != .level && frame.menu == nil: step = 3; return []
            case 3 where display.notices.contains { $0?.hasPrefix("Neutral: 17.") == true && $0?.contains("right edge down 17.") == true }:
                step = 4; return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        frameLoop = loop(display)
        let outcome = try frameLoop.run()
        #expect(!display.gaveUp, "stopped at step \(step)")
        let angle = outcome.calibration.reference.angleFromLevel
        #expect(abs(angle - 0.3) < 0.01, "neutral \(angle) rad")
        #expect(outcome.calibration.reference.edgeAngles.right < -15, "the right edge is down: \(outcome.calibration.reference.summary)")
        let last = try #require(display.frames.last)
        #expect(last.snapshot.gravity.x.magnitude < 0.05 && last.snapshot.gravity.y.magnitude < 0.05,
                "held at the neutral, the physics sees a level board: \(last.snapshot.gravity)")
        #expect(display.notices.contains { $0?.hasPrefix("Neutral: 17.") == true && $0?.contains("right edge down 17.") == true }, "\(Set(display.notices.compactMap { $0 }))")
    }

    @Test("arrows tilt a board the player commands: the ball rolls that way")
    func arrowsTiltTheBoard() throws {
        let source = ControlledSource()
        let physics = PhysicsLoop(level: Fixtures.level, samples: source.samples)
        let start = Fixtures.level.startPoint
        let display = RecordingDisplay { frame, index in
            if index == 0 { return [.right] }
            return frame.snapshot.ball.x > start.x + 1 ? [.character(UInt8(ascii: "q"))] : []
        }
        _ = try FrameLoop(display: display, physics: physics, feed: SensorFeed(source: source, board: source), framePeriod: 5_000_000).run()
        #expect(!display.gaveUp)
        #expect(display.frames.last!.snapshot.ball.x > start.x + 1)
    }

    @Test("a controller that goes away: its notice is shown and the physics pauses until it is back")
    func interruption() throws {
        let source = ControlledSource()
        var step = 0
        let display = RecordingDisplay { frame, _ in
            switch step {
            case 0: source.interrupt("DualSense disconnected: waiting for it to come back"); step = 1
            case 1 where frame.snapshot.status == .paused: source.interrupt(nil); step = 2
            case 2 where frame.snapshot.status == .playing: step = 3; return [.character(UInt8(ascii: "q"))]
            default: break
            }
            return []
        }
        _ = try loop(display, source: source).run()
        #expect(!display.gaveUp, "stopped at step \(step)")
        #expect(display.notices == ["DualSense disconnected: waiting for it to come back", nil])
        #expect(source.started == 1 && source.stopped == 1)
    }

    @Test("while the terminal is too small to show the maze the game is paused, clock and ball, and goes on when it grows (issue 51)")
    func aTerminalTooSmallPausesTheGame() throws {
        let source = ControlledSource()
        var step = 0
        var whileSmall: [WorldSnapshot] = []
        var display: RecordingDisplay!
        display = RecordingDisplay { frame, index in
            switch step {
            // Rolling first: the clock runs and the ball moves.
            case 0 where frame.snapshot.elapsed > 0.05:
                display.showsWholeMaze = false
                step = 1
                return [.right]
            case 1:
                // The physics sees the pause on its next tick, which a loaded
                // machine may give it some frames later: from the first paused
                // snapshot on, every one must stay so.
                if frame.snapshot.status == .paused || !whileSmall.isEmpty { whileSmall.append(frame.snapshot) }
                if whileSmall.count == 40 {
                    display.showsWholeMaze = true
                    step = 2
                }
            case 2 where frame.snapshot.status == .playing && frame.snapshot.elapsed > whileSmall.last!.elapsed:
                step = 3
                return [.character(UInt8(ascii: "q"))]
            default: break
            }
            return []
        }
        _ = try loop(display, source: source).run()
        #expect(!display.gaveUp, "stopped at step \(step)")
        #expect(whileSmall.allSatisfy { $0.status == .paused }, "\(whileSmall.map(\.status))")
        #expect(Set(whileSmall.map(\.elapsed)).count == 1, "the clock stood still: \(whileSmall.map(\.elapsed))")
        #expect(Set(whileSmall.map { "\($0.ball)" }).count == 1, "the ball stood still: \(whileSmall.map(\.ball))")
        #expect(display.frames.allSatisfy { $0.menu == nil }, "no menu opened for it")
    }

    @Test("a sensor that fails ends the game with its reason, and the threads are stopped")
    func sensorFailure() throws {
        let source = ControlledSource()
        let display = RecordingDisplay { _, index in
            if index == 3 { source.fail("mpu6050 on iio:device0 is gone") }
            return []
        }
        let outcome = try loop(display, source: source).run()
        #expect(!display.gaveUp)
        #expect(outcome.sensorFailure == "mpu6050 on iio:device0 is gone")
        #expect(source.stopped == 1)
    }

    @Test("--stats: the figures are brought up to date a few times a second, in the documented form")
    func statistics() throws {
        let display = RecordingDisplay { _, _ in [] }
        display.script = { _, _ in display.statistics.count >= 2 ? [.character(UInt8(ascii: "q"))] : [] }
        _ = try loop(display, statistics: true).run()
        #expect(!display.gaveUp)
        let line = try #require(display.statistics.last)
        let form = /tick (\d+|-)\/(\d+|-)us  frame \d+\.\dms cost \d+\.\d\dms  age (\d+\.\d|-)\/(\d+\.\d|-)ms  dropped \d+  sent \d+B\/\d+/
        #expect(line.wholeMatch(of: form) != nil, "\(line)")
        #expect(!line.hasPrefix("tick -"), "the physics thread ticked: \(line)")
    }

    @Test("the refresh period of the display paces the frames when none is given")
    func displayRefresh() throws {
        let display = RecordingDisplay(refreshPeriod: 7_000_000) { _, index in index == 5 ? [.character(UInt8(ascii: "q"))] : [] }
        let source = ControlledSource()
        _ = try FrameLoop(display: display, physics: PhysicsLoop(level: Fixtures.level, samples: source.samples),
                          feed: SensorFeed(source: source, board: source)).run()
        let steps = zip(display.deadlines, display.deadlines.dropFirst()).map { $1 - $0 }
        #expect(!steps.isEmpty && steps.allSatisfy { $0 % 7_000_000 == 0 }, "\(steps)")
    }

    @Test("F12 saves the frame on screen as a PNG in the screenshot directory and says so on the status line")
    func screenshot() throws {
        let directory = "/tmp/tiltmaze-shots-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        let display = RecordingDisplay { _, _ in [] }
        display.script = { _, index in
            if index == 1 { return [.function(12)] }
            return display.notices.contains { $0?.hasPrefix("saved ") == true } ? [.character(UInt8(ascii: "q"))] : []
        }
        let source = ControlledSource()
        let loop = FrameLoop(display: display, physics: PhysicsLoop(level: Fixtures.level, samples: source.samples),
                             feed: SensorFeed(source: source, board: source), framePeriod: 5_000_000,
                             screenshots: Screenshots(directory: directory, level: Fixtures.level, sensorName: "test",
                                                      width: 320, height: 200))
        _ = try loop.run()
        #expect(!display.gaveUp)
        let saved = try #require(display.notices.compactMap { $0 }.first { $0.hasPrefix("saved ") })
        let path = String(saved.dropFirst(6))
        #expect(path.hasPrefix(directory + "/tiltmaze-") && path.hasSuffix(".png"))
        let image = try PNGImage(contentsOf: path)
        #expect(image.width == 320 && image.height == 200)
    }
}

/// F12 against a limit, without a frame loop: the count includes earlier games' pictures.
@Suite("Screenshots")
struct ScreenshotLimitTests {
    @Test("with a limit, pictures already in the directory count, and F12 past it saves nothing and says why")
    func limit() throws {
        let directory = "/tmp/tiltmaze-shot-limit-\(getpid())"
        mkdir(directory, 0o755)
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        // One from an earlier game, and a file that is no screenshot (not counted).
        #expect(FileManager.default.createFile(atPath: directory + "/tiltmaze-1-1.png", contents: Data()))
        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data()))
        let shots = Screenshots(directory: directory, level: Fixtures.level, sensorName: "test", width: 160, height: 100, limit: 2)
        let snapshot = WorldSnapshot()
        #expect(shots.save(snapshot, menu: nil).hasPrefix("saved \(directory)/tiltmaze-"))
        let refused = shots.save(snapshot, menu: nil)
        #expect(refused == "screenshot not saved: \(directory) holds 2 already, the most kept (--screenshot-limit)", "\(refused)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }
        #expect(pictures.count == 2)
    }
}

/// F12 never replaces a picture already in the directory.
@Suite("Screenshots kept")
struct ScreenshotKeptTests {
    @Test("pictures of another game named as this one's would be are kept: the next number is used")
    func neverReplaced() throws {
        let dir = TemporaryDirectory()
        // Another game's first pictures, in every second this test may take.
        let now = time(nil)
        let mine = Data("another game's picture".utf8)
        for second in now ... now + 5 {
            for n in 1 ... 2 { #expect(FileManager.default.createFile(atPath: dir.path + "/tiltmaze-\(second)-\(n).png", contents: mine)) }
        }
        let shots = Screenshots(directory: dir.path, level: Fixtures.level, sensorName: "test", width: 160, height: 100)
        let said = shots.save(WorldSnapshot(), menu: nil)
        #expect(said.hasPrefix("saved \(dir.path)/tiltmaze-") && said.hasSuffix("-3.png"), "\(said)")
        for second in now ... now + 5 {
            for n in 1 ... 2 {
                #expect(FileManager.default.contents(atPath: dir.path + "/tiltmaze-\(second)-\(n).png") == mine)
            }
        }
    }
}

/// Two games (two processes, each with its own count) saving in one
/// directory in the same second: the second's first name is taken, and
/// its picture goes under the next one.
@Suite("Screenshots of two games")
struct ScreenshotsOfTwoGamesTests {
    @Test("two Screenshots saving into one directory in the same second keep both pictures, each under its own name")
    func bothKept() throws {
        // Tried again (a fresh directory, fresh games) if a second ends between the two saves.
        for _ in 1 ... 5 {
            let dir = TemporaryDirectory()
            let first = Screenshots(directory: dir.path, level: Fixtures.level, sensorName: "first game", width: 160, height: 100)
            let second = Screenshots(directory: dir.path, level: Fixtures.level, sensorName: "second game", width: 160, height: 100)
            let saidFirst = first.save(WorldSnapshot(), menu: nil)
            let firstPath = String(saidFirst.dropFirst("saved ".count))
            let firstBytes = try #require(FileManager.default.contents(atPath: firstPath), "\(saidFirst)")
            let saidSecond = second.save(WorldSnapshot(), menu: nil)
            let secondPath = String(saidSecond.dropFirst("saved ".count))
            let seconds = [firstPath, secondPath].map { $0.split(separator: "/").last!.split(separator: "-").dropFirst().first }
            guard seconds[0] == seconds[1] else { continue }
            #expect(saidFirst.hasPrefix("saved \(dir.path)/tiltmaze-") && firstPath.hasSuffix("-1.png"), "\(saidFirst)")
            #expect(saidSecond.hasPrefix("saved \(dir.path)/tiltmaze-") && secondPath.hasSuffix("-2.png"), "\(saidSecond)")
            #expect(dir.names().filter { $0.hasSuffix(".png") }.count == 2, "\(dir.names())")
            #expect(FileManager.default.contents(atPath: firstPath) == firstBytes, "the second game wrote over the first one's picture")
            let image = try PNGImage(contentsOf: secondPath)
            #expect(image.width == 160 && image.height == 100)
            return
        }
        Issue.record("every try spanned two seconds")
    }
}

/// The campaign through the frame loop: the level menu loads another level
/// into the physics and the display, and the banner follows.
@Suite("Frame loop in a campaign")
struct CampaignFrameLoopTests {
    @Test("choosing a level in the level menu stops the physics, loads the level into it and the display, and plays it")
    func levelMenuLoadsLevel() throws {
        let dir = TemporaryDirectory()
        let store = ProgressStore(directory: dir.path)
        // Level 1 won before: levels 1 and 2 are open.
        var progress = Progress()
        progress.recordWin(Campaign.levels[0].key, time: 30)
        _ = store.save(progress)
        let playlist = Playlist.campaign(store: store, start: 0)
        let source = ControlledSource()
        let physics = PhysicsLoop(level: playlist.level, samples: source.samples)
        var step = 0
        let display = RecordingDisplay { frame, _ in
            switch step {
            case 0: step = 1; return [.character(UInt8(ascii: "p"))]
            // Pause menu: Resume, Restart, Levels…
            case 1 where frame.menu?.menu == .paused: step = 2; return [.down, .down, .enter]
            // The level menu opens on the level played; one down is level 2.
            case 2 where frame.menu?.menu == .levels: step = 3; return [.down, .enter]
            case 3 where frame.menu == nil && physics.level === Campaign.levels[1].level && frame.snapshot.status == .playing:
                step = 4; return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        let outcome = try FrameLoop(display: display, physics: physics, feed: SensorFeed(source: source, board: source), playlist: playlist,
                                    player: .ball, framePeriod: 5_000_000).run()
        #expect(!display.gaveUp, "stopped at step \(step)")
        #expect(step == 4)
        #expect(display.loaded.count == 1 && display.loaded.first?.level === Campaign.levels[1].level)
        #expect(display.loaded.first?.banner.title == "2/\(Campaign.levels.count) First Roll")
        #expect(display.loaded.first?.banner.player == .ball)
        #expect(display.banners.first?.levelLabels.first?.contains("best 30.00 s") == true)
        #expect(outcome.levelTitle == "First Roll")
    }
}
