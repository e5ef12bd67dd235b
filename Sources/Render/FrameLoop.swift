import SystemCalls
import Controls
import Game
import MotionCore
import Realtime

/// One game on a display: the sensor and physics threads running, and this
/// thread drawing the newest snapshot on a frame clock of its own.
///
/// Each frame has an absolute deadline (60 Hz, or the display's refresh).
/// Until it, the loop waits in the display for keys and acts on each as it
/// comes; at it, it reads the gamepads, takes the newest snapshot (never
/// waiting for the physics) and draws. A late frame does not shift the
/// ones after it; a stall skips frames rather than drawing a burst.
public final class FrameLoop {
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
        /// The neutral tilt at the end (the player may have set it with "Calibrate here").
        public var reference: TiltReference = .level
        /// The gyroscope's bias at the end, when it was estimated long enough to keep.
        public var gyroBias: Vector3?
    }

    /// 60 Hz: what most screens refresh at, and the terminal's pace.
    public static let defaultFramePeriod: Int64 = 16_666_667

    let display: any Display
    let physics: PhysicsLoop
    /// The levels played (the campaign, or one) and their records.
    public let playlist: Playlist
    let player: PlayerStyle
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
    /// How long a message (a screenshot saved) stays on the status line.
    static let messageDuration: Int64 = 3_000_000_000

    /// - Parameters:
    ///   - pads: gamepads and joysticks, read once a frame.
    ///   - framePeriod: ns between frames; nil takes the display's refresh, else 60 Hz.
    ///   - showStatistics: keep the `--stats` figures and show them on the display.
    ///   - playlist: what is played; nil plays the physics' level once, keeping no record.
    ///   - player: how the player is drawn.
    public init(display: any Display, physics: PhysicsLoop, source: any MotionSource, pads: [any PadSource] = [],
                playlist: Playlist? = nil, player: PlayerStyle = .pacman,
                framePeriod: Int64? = nil, showStatistics: Bool = false,
                statisticsInterval: Int64 = 500_000_000, screenshots: Screenshots? = nil) {
        self.screenshots = screenshots
        self.playlist = playlist ?? Playlist.single(physics.level, key: nil, store: nil)
        self.player = player
        self.display = display
        self.physics = physics
        self.source = source
        self.pads = pads
        self.framePeriod = framePeriod ?? display.refreshPeriod ?? Self.defaultFramePeriod
        self.statistics = showStatistics ? FrameStatistics() : nil
        self.statisticsInterval = statisticsInterval
    }

    /// Starts the sensor and the physics, runs frames until the player
    /// quits, the display asks to, or the sensor fails; stops both threads.
    public func run() throws -> Outcome {
        try source.start()
        defer { source.stop() }
        try physics.start()
        defer { physics.stop() }

        let board = source as? any CommandedTilt
        var flow = GameFlow(campaign: playlist.flowCampaign)
        var quit = false
        // Whether this game's win is counted yet (a restart or a new level starts another game).
        var winRecorded = false
        // The banner is made (its strings allocated) only when a level starts or is won.
        func banner() -> LevelBanner {
            var banner = playlist.banner
            banner.player = player
            return banner
        }
        func showBanner() {
            let shown = banner()
            display.setBanner(shown)
            screenshots?.show(physics.level, banner: shown)
        }
        showBanner()
        var outcome = Outcome()
        outcome.levelTitle = physics.level.title
        var shownInterruption: String?
        var screenshotWanted = false
        // A message for the player (a screenshot saved) and when it goes away.
        var message: (text: String, until: Int64)?
        func apply(_ input: GameInput) {
            switch flow.handle(input) {
            case .nudge(let right, let up): board?.nudge(right: right, up: up)
            case .level: board?.level()
            case .restart:
                physics.restart()
                winRecorded = false
            case .playLevel(let index):
                // The world belongs to the physics thread while it runs: stop it, swap, start again.
                physics.stop()
                playlist.select(index)
                physics.load(playlist.level)
                flow.campaign = playlist.flowCampaign
                winRecorded = false
                outcome.levelTitle = playlist.level.title
                do {
                    let shown = banner()
                    try display.load(playlist.level, banner: shown)
                    screenshots?.show(playlist.level, banner: shown)
                    try physics.start()
                } catch {
                    outcome.failure = "cannot play \"\(playlist.level.title)\": \(error)"
                    quit = true
                }
            case .quit: quit = true
            case .screenshot: screenshotWanted = screenshots != nil
            case .calibrateHere:
                physics.changeReference(.captureCurrent)
                calibrationAsked = latestReferenceChanges
            case nil: break
            }
        }

        // After "Calibrate here", the new neutral is told once the physics has taken it.
        var calibrationAsked: UInt64?
        var latestReferenceChanges: UInt64 = 0
        var schedule = PeriodicSchedule(period: framePeriod, start: MonotonicClock.now(), maxCatchUp: 2)
        var lastWrite = MonotonicClock.now()
        var nextStatistics = lastWrite + statisticsInterval
        while !quit && !display.quitRequested {
            if let failure = source.failure {
                outcome.sensorFailure = failure
                break
            }
            display.waitForInput(until: schedule.deadline) { key in
                if let input = GameInput(key: key) { apply(input) }
            }
            if quit || display.quitRequested { break }
            if display.suspendRequested {
                // Paused first, so the time away is not played (the physics
                // thread also skips whole periods after a stall).
                physics.setPaused(true)
                display.suspendUntilContinued()
                schedule = PeriodicSchedule(period: framePeriod, start: MonotonicClock.now(), maxCatchUp: 2)
                continue
            }
            let wake = MonotonicClock.now()
            frameLateness.record(schedule.woke(at: wake))
            for pad in pads { pad.poll { apply(GameInput(button: $0)) } }

            // A controller that went away pauses the game until it is back;
            // its notice outranks a passing message.
            let interruption = source.interruption
            if let shown = message, wake >= shown.until { message = nil }
            let notice = interruption ?? message?.text
            if notice != shownInterruption {
                shownInterruption = notice
                display.setNotice(notice)
            }
            physics.setPaused(flow.wantsPause || interruption != nil)
            let snapshot = physics.snapshots.read().value
            if snapshot.status == .won, !winRecorded {
                // Saved at once: a crash or a pulled plug later loses nothing.
                winRecorded = true
                playlist.recordWin(time: snapshot.elapsed)
                flow.campaign = playlist.flowCampaign
                showBanner()
            }
            flow.update(status: snapshot.status)
            outcome.winningTime = snapshot.status == .won ? snapshot.elapsed : nil
            outcome.reference = snapshot.reference
            outcome.gyroBias = snapshot.hasLearntGyroBias ? snapshot.gyroBias : nil
            latestReferenceChanges = snapshot.referenceChanges
            if let asked = calibrationAsked, snapshot.referenceChanges > asked {
                calibrationAsked = nil
                message = ("Neutral: \(snapshot.reference.shortSummary)", wake + Self.messageDuration)
            }
            let drawn = display.draw(snapshot, menu: flow.menu)
            if screenshotWanted, let screenshots {
                screenshotWanted = false
                message = (screenshots.save(snapshot, menu: flow.menu), MonotonicClock.now() + Self.messageDuration)
            }

            guard let statistics else { continue }
            let written = MonotonicClock.now()
            statistics.framePeriod.record(written - lastWrite)
            statistics.frameCost.record(written - wake)
            statistics.recordSent(drawn)
            if snapshot.lastSampleTime > 0 { statistics.sampleAge.record(written - snapshot.lastSampleTime) }
            lastWrite = written
            if written >= nextStatistics {
                nextStatistics = written + statisticsInterval
                display.setStatistics(statistics.text(tickLateness: physics.tickLateness, dropped: snapshot.samplesDropped))
            }
        }
        return outcome
    }
}
