// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore
import Handoff

/// One sitting at the game, apart from any screen: the flow between play and
/// the menus, the levels played and their records, the commanded board, and
/// the physics that plays them.
///
/// The frame loop feeds it inputs and, once a frame, the time; it answers
/// with the newest snapshot and keeps counters that say when the screen must
/// load another level or show another banner. Tests drive it with a physics
/// loop that is never started, ticking it by hand.
public final class GameSession {
    /// How a game ended.
    public struct Outcome: Sendable, Equatable {
        /// Seconds to the exit, if the player reached it before quitting.
        public var winningTime: Double?
        /// Why the sensor stopped, if it did (the game ends then).
        public var sensorFailure: String?
        /// Why the next level could not be shown or played, if that ended the game.
        public var failure: String?
        /// The level last played.
        public var levelTitle = ""
        /// The calibration at the end: the neutral (the player may have set
        /// it with "Calibrate here"), the gyroscope's bias and the refined
        /// magnetometer, as `StoredCalibration.save` keeps them.
        public var calibration = CalibrationState()
        /// The feel the player set in the Settings menu, if they changed it: to keep for the next game.
        public var feel: TiltFeel?

        public init() {}
    }

    /// How long a message (a screenshot saved, the new neutral) stays shown.
    public static let messageDuration: Int64 = 3_000_000_000

    public let physics: PhysicsLoop
    /// The levels played (the campaign, or one) and their records.
    public let playlist: Playlist
    public let player: PlayerStyle
    /// The simulated board the arrows tilt; nil for a real sensor.
    let board: (any CommandedTilt)?

    public private(set) var flow: GameFlow
    public private(set) var outcome = Outcome()
    /// The player asked to quit, or a level could not be played.
    public private(set) var isOver = false
    /// Goes up each time another level is put in play: the screen loads it.
    public private(set) var levelChanges = 0
    /// Goes up each time the banner changes (a level put in play, a win): the screen shows it.
    public private(set) var bannerChanges = 0
    /// F12 was pressed; the frame loop takes the picture and clears it.
    public private(set) var screenshotWanted = false

    /// Whether this game's win is counted yet (a restart or a new level starts another game).
    private var winRecorded = false
    private var running = false
    /// After "Calibrate here": the reference changes seen when it was asked;
    /// the new neutral is told once the physics has taken it.
    private var calibrationAsked: UInt64?
    private var referenceChangesSeen: UInt64 = 0
    private var message: (text: String, until: Int64)?
    /// Why the last input did nothing, shown as a message from the next frame on.
    private var refusal: String?

    /// - Parameter playlist: what is played; nil plays the physics' level once, keeping no record.
    /// - Parameter feel: the player's sensitivity, dead zone, smoothing and inversion, which the Settings menu changes.
    public init(physics: PhysicsLoop, playlist: Playlist? = nil, player: PlayerStyle = .pacman,
                board: (any CommandedTilt)? = nil, feel: TiltFeel = .standard) {
        self.physics = physics
        self.playlist = playlist ?? Playlist.single(physics.level, key: nil, store: nil)
        self.player = player
        self.board = board
        self.flow = GameFlow(campaign: self.playlist.flowCampaign)
        flow.feel = feel
        physics.changeFeel(feel)
        outcome.levelTitle = physics.level.title
        // The calibration the game starts from: a game that ends before its
        // first frame (a quit signal, a sensor failing at once) saves it
        // unchanged rather than a level neutral over the player's own.
        outcome.calibration = physics.motionStatus.read().value.calibration
    }

    /// The level in play.
    public var level: Level { physics.level }
    /// The menu shown, if any.
    public var menu: MenuState? { flow.menu }

    /// The banner for the level in play; made (its strings allocated) only when asked.
    public var banner: LevelBanner {
        var banner = playlist.banner
        banner.player = player
        banner.settingLabels = flow.feel.settingLabels
        return banner
    }

    /// Starts the physics thread.
    public func start() throws {
        try physics.start()
        running = true
    }

    /// Stops the physics thread and waits for it.
    public func stop() {
        physics.stop()
        running = false
    }

    /// Carries out what an input means now (the menus decide).
    public func handle(_ input: GameInput) {
        switch flow.handle(input) {
        case .nudge(let right, let up): board?.nudge(right: right, up: up)
        case .level: board?.level()
        case .restart:
            physics.restart()
            winRecorded = false
        case .playLevel(let index): play(index)
        case .refused(let why): refusal = why
        case .quit: isOver = true
        case .screenshot: screenshotWanted = true
        case .calibrateHere:
            physics.changeReference(.captureCurrent)
            calibrationAsked = referenceChangesSeen
        case .changeFeel(let feel):
            physics.changeFeel(feel)
            outcome.feel = feel
            // The menu's lines show the new value: the banner carries them.
            bannerChanges += 1
        case nil: break
        }
    }

    /// Campaign level `index` in place of the one in play.
    private func play(_ index: Int) {
        // The world belongs to the physics thread while it runs: stop it, swap, start again.
        let wasRunning = running
        if wasRunning { stop() }
        playlist.select(index)
        physics.load(playlist.level)
        flow.campaign = playlist.flowCampaign
        winRecorded = false
        outcome.levelTitle = playlist.level.title
        levelChanges += 1
        bannerChanges += 1
        guard wasRunning else { return }
        do {
            try start()
        } catch {
            fail("cannot play \"\(playlist.level.title)\": \(error)")
        }
    }

    /// Ends the session for a reason the player is told (a level the screen cannot show).
    public func fail(_ reason: String) {
        outcome.failure = reason
        isOver = true
    }

    /// Ends the session because the sensor stopped.
    public func sensorFailed(_ reason: String) {
        outcome.sensorFailure = reason
        isOver = true
    }

    /// Once a frame: pauses the physics for a menu or a missing controller
    /// (`interrupted`), takes the newest snapshot without waiting for the
    /// physics, records a win the moment it happens, and keeps the outcome.
    /// The calibration comes beside the snapshot (`physics.motionStatus`),
    /// read only when the physics published a new one.
    public func frame(now: Int64, interrupted: Bool) -> WorldSnapshot {
        physics.setPaused(flow.wantsPause || interrupted)
        let snapshot = physics.snapshots.read().value
        let (status, statusIsNew) = physics.motionStatus.read()
        if snapshot.status == .won, !winRecorded {
            // Saved at once: a crash or a pulled plug later loses nothing.
            winRecorded = true
            playlist.recordWin(time: snapshot.elapsed)
            flow.campaign = playlist.flowCampaign
            bannerChanges += 1
        }
        flow.update(status: snapshot.status)
        outcome.winningTime = snapshot.status == .won ? snapshot.elapsed : nil
        guard statusIsNew else { return snapshot }
        outcome.calibration = status.calibration
        referenceChangesSeen = status.referenceChanges
        if let asked = calibrationAsked, status.referenceChanges > asked {
            calibrationAsked = nil
            show("Neutral: \(status.calibration.reference.shortSummary)", now: now)
        }
        return snapshot
    }

    /// The screenshot was taken, or failed (`result` says which, for a
    /// while), or cannot be (nil: no place to save it).
    public func screenshotTaken(_ result: String?, now: Int64) {
        screenshotWanted = false
        if let result { show(result, now: now) }
    }

    /// Shows a message for `messageDuration`.
    public func show(_ text: String, now: Int64) {
        message = (text, now + Self.messageDuration)
    }

    /// The message to show at `now`, if one is still up.
    public func message(at now: Int64) -> String? {
        if let refusal {
            show(refusal, now: now)
            self.refusal = nil
        }
        if let shown = message, now >= shown.until { message = nil }
        return message?.text
    }
}
