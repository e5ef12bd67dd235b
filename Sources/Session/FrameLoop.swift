// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Displays
import Render
import SystemCalls
import Controls
import Game
import MotionCore
import Realtime

/// One game on a display: the session's pipeline from the sensor to the
/// screen. It starts the source and the physics thread, and on this thread
/// takes keys until each frame's deadline, then shows the newest snapshot
/// on a frame clock of its own. It never waits for the physics.
///
/// The game itself (menus, levels, wins, the simulated board the arrows
/// tilt) is the `GameSession`; this loop paces it (`FramePacer`), shows what
/// it says on the display, and keeps the `--stats` figures.
public final class FrameLoop {
    /// 60 Hz: what most screens refresh at, and the terminal's pace.
    public static let defaultFramePeriod: Int64 = 16_666_667

    let display: any Display
    let input: any KeyInput
    public let session: GameSession
    let source: any MotionSource
    let pads: [any PadSource]
    let framePeriod: Int64
    /// Non-nil with `--stats`: what the status line reports.
    let statistics: FrameStatistics?
    /// How often the figures are brought up to date.
    let statisticsInterval: Int64
    /// How late each frame woke, ns.
    public let frameLateness = LatencyHistogram()
    /// Where F12 saves pictures; nil: F12 does nothing.
    let screenshots: Screenshots?
    /// The sensor's stored calibration, saved when the game ends; nil keeps nothing.
    let calibration: StoredCalibration?

    /// - Parameters:
    ///   - input: where the keys come from (the display's own, for every back end of ours).
    ///   - pads: gamepads and joysticks, read once a frame.
    ///   - framePeriod: ns between frames; nil takes the display's refresh, else 60 Hz.
    ///   - showStatistics: keep the `--stats` figures and show them on the display.
    public init(display: any Display, input: any KeyInput, session: GameSession, source: any MotionSource,
                pads: [any PadSource] = [], framePeriod: Int64? = nil, showStatistics: Bool = false,
                statisticsInterval: Int64 = 500_000_000, screenshots: Screenshots? = nil,
                calibration: StoredCalibration? = nil) {
        self.screenshots = screenshots
        self.calibration = calibration
        self.display = display
        self.input = input
        self.session = session
        self.source = source
        self.pads = pads
        self.framePeriod = framePeriod ?? display.refreshPeriod ?? Self.defaultFramePeriod
        self.statistics = showStatistics ? FrameStatistics() : nil
        self.statisticsInterval = statisticsInterval
    }

    /// A session of `physics` on `feed`, whose board (the simulated one) the arrows tilt.
    ///   - playlist: what is played; nil plays the physics' level once, keeping no record.
    ///   - player: how the player is drawn.
    public convenience init(display: any DisplayBackEnd, physics: PhysicsLoop, feed: SensorFeed,
                            pads: [any PadSource] = [], playlist: Playlist? = nil, player: PlayerStyle = .pacman,
                            framePeriod: Int64? = nil, showStatistics: Bool = false,
                            statisticsInterval: Int64 = 500_000_000, screenshots: Screenshots? = nil) {
        let session = GameSession(physics: physics, playlist: playlist, player: player, board: feed.board)
        self.init(display: display, input: display, session: session, source: feed.source, pads: pads,
                  framePeriod: framePeriod, showStatistics: showStatistics, statisticsInterval: statisticsInterval,
                  screenshots: screenshots)
    }

    /// The game a player sits down to: `playlist` on `feed`, the physics
    /// made here at `physicsRate` from the sensor's stored `calibration`,
    /// which `run` saves when the game ends (the neutral the player set,
    /// the gyroscope's bias once learnt, the magnetometer refined).
    public convenience init(display: any DisplayBackEnd, playlist: Playlist, feed: SensorFeed,
                            calibration: StoredCalibration?, physicsRate: Double = PhysicsLoop.defaultRate,
                            pads: [any PadSource] = [], player: PlayerStyle = .pacman, feel: TiltFeel = .standard,
                            showStatistics: Bool = false, screenshots: Screenshots? = nil) {
        let physics = PhysicsLoop(level: playlist.level, samples: feed.source.samples, rate: physicsRate,
                                  estimator: calibration?.estimator() ?? TiltEstimator())
        let session = GameSession(physics: physics, playlist: playlist, player: player, board: feed.board, feel: feel)
        self.init(display: display, input: display, session: session, source: feed.source, pads: pads,
                  showStatistics: showStatistics, screenshots: screenshots, calibration: calibration)
    }

    /// Starts the sensor and the physics, runs frames until the player
    /// quits, the display asks to, or the sensor fails; stops both threads.
    public func run() throws -> GameSession.Outcome {
        try source.start()
        defer { source.stop() }
        try session.start()
        defer { session.stop() }

        let session = self.session
        var shownLevel = session.levelChanges
        var shownBanner = session.bannerChanges
        showBanner()
        var shownNotice: String?
        var pacer = FramePacer(input: input, source: source, pads: pads, context: .game, framePeriod: framePeriod)
        var lastWrite = MonotonicClock.now()
        var nextStatistics = lastWrite + statisticsInterval
        while let frame = pacer.nextFrame(ended: { session.isOver },
                                          // Paused first, so the time away is not played.
                                          suspending: { session.physics.setPaused(true) },
                                          { session.handle($0) }) {
            frameLateness.record(frame.lateness)
            // A controller that went away pauses the game until it is back;
            // its notice outranks a passing message, which outranks how the
            // sensor reads now (a silent trigger left for polling).
            let notice = pacer.interruption ?? session.message(at: frame.start) ?? pacer.sourceNotice
            if notice != shownNotice {
                shownNotice = notice
                display.setNotice(notice)
            }
            // So does a terminal too small to show the maze, until it grows (its status line says the size needed).
            let snapshot = session.frame(now: frame.start,
                                         interrupted: pacer.interruption != nil || !display.showsWholeMaze)
            if session.levelChanges != shownLevel {
                shownLevel = session.levelChanges
                shownBanner = session.bannerChanges
                let banner = session.banner
                do {
                    try display.load(session.level, banner: banner)
                    screenshots?.show(session.level, banner: banner)
                } catch {
                    session.fail("cannot play \"\(session.level.title)\": \(error)")
                    break
                }
            } else if session.bannerChanges != shownBanner {
                shownBanner = session.bannerChanges
                showBanner()
            }
            let drawn = display.draw(snapshot, menu: session.menu)
            if session.screenshotWanted {
                session.screenshotTaken(screenshots?.save(snapshot, menu: session.menu), now: MonotonicClock.now())
            }

            guard let statistics else { continue }
            let written = MonotonicClock.now()
            statistics.framePeriod.record(written - lastWrite)
            statistics.frameCost.record(written - frame.start)
            statistics.recordSent(drawn)
            if snapshot.lastSampleTime > 0 { statistics.sampleAge.record(written - snapshot.lastSampleTime) }
            lastWrite = written
            if written >= nextStatistics {
                nextStatistics = written + statisticsInterval
                display.setStatistics(statistics.text(tickLateness: session.physics.tickLateness,
                                                      dropped: snapshot.samplesDropped,
                                                      retried: source.retryCount, lost: source.failedSampleCount))
            }
        }
        if let failure = pacer.failure { session.sensorFailed(failure) }
        // A failure is reported, not thrown: the game itself went as it went.
        calibration?.save(session.outcome.calibration)
        return session.outcome
    }

    /// The banner goes up when a level starts or is won (its strings are made only then).
    private func showBanner() {
        let banner = session.banner
        display.setBanner(banner)
        screenshots?.show(session.level, banner: banner)
    }
}
