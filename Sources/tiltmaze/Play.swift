// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import Game
import MotionCore
import MotionDevices
import Displays
import Render
import Session
import SystemCalls

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the campaign, a level file or a random maze (the default command).",
        discussion: """
            With none of --level, --maze and --campaign, plays the bundled
            campaign from the first level not yet won (a level opens when
            the one before it is won; progress and best times are kept in
            $XDG_STATE_HOME/tiltmaze, else ~/.local/state/tiltmaze).
            Rules: three lives; a ghost's touch costs one and sends you back
            to the start, blinking, safe for two seconds; pellets score, and
            on some levels the exit opens only once all are eaten.
            Keys: arrows or WASD tilt the simulated board, space levels it,
            p or Enter opens the menu (Resume, Restart, Levels, Calibrate
            here, Settings, Quit: arrows and Enter choose), Esc backs out of a menu
            (and quits while playing), r restarts, q or Ctrl-C quits.
            A gamepad works too: D-pad = arrows, A/Cross = Enter,
            B/Circle = back, Start/Options = menu, Select/Create = restart.
            So does the Sense HAT joystick: push = arrows, press = Enter.
            The feel (sensitivity, dead zone, smoothing, axes turned round)
            is set in the menu's Settings, kept in
            $XDG_CONFIG_HOME/tiltmaze/settings.json, else
            ~/.config/tiltmaze/settings.json (docs/playing.md, "Your own feel");
            the options below set it for one game.
            """
    )

    @OptionGroup(title: "Sensor")
    var sensor: SourceOptions

    @Option(help: ArgumentHelp("A level file to play instead of the campaign (format: docs/playing.md, \"Level files\").", valueName: "file"))
    var level: String?

    @Option(help: ArgumentHelp("Play your own campaign: a folder of level files, in the order of their names (01-first.txt, 02-next.txt, …; at most \(LevelFolder.maximumLevels)). Progress is kept as for the bundled one.", valueName: "dir"))
    var campaign: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The campaign level to start at (1 to \(Campaign.levels.count) in the bundled one), if it is open; `tiltmaze levels` lists them.", valueName: "n"))
    var start: Int?

    @Option(help: "How the player is drawn: pacman (faces its way, chomps) or ball (rolls).")
    var player: PlayerStyle = .pacman

    @Option(help: ArgumentHelp("Play a generated maze instead of a level: random, or random:SEED to play a shared one (the seed is in the title).", valueName: "random[:seed]"))
    var maze: MazeRequest?

    @Option(help: ArgumentHelp("The generated maze's size in cells, border included (7 to 201 each way).", valueName: "WxH"))
    var size: MazeSize = MazeSize(width: 41, height: 21)

    @Option(parsing: .unconditional, help: "Physics rate, steps per second.")
    var physicsRate: Double = PhysicsLoop.defaultRate

    @Option(help: "Where to draw: auto (on a Linux console KMS, else the framebuffer; elsewhere the terminal), terminal, kms (tear-free page flips), kms:/dev/dri/cardN, fb, fb:/dev/fbN, sensehat (the LED matrix), or a screen and the matrix: kms,sensehat.")
    var display: DisplaySelection = DisplaySelection(screen: .auto)

    @Option(help: ArgumentHelp("Where F12 saves a picture of the screen (PNG).", valueName: "dir"))
    var screenshotDir: String = "."

    @Option(help: ArgumentHelp("Save no more screenshots once the screenshot directory holds this many (default: no limit).", valueName: "n"))
    var screenshotLimit: Int?

    @Flag(help: "With --source replay:FILE: no screen and no clock; play the recording as fast as the physics can and print the outcome as one line of JSON (won, time_s, catches, steps, trajectory_hash).")
    var headless = false

    @Option(parsing: .unconditional, help: ArgumentHelp("How strongly a tilt rolls the ball, × (0.25 to 4; 1 as shipped). For this game; the menu's Settings keep it.", valueName: "x"))
    var sensitivity: Double?

    @Option(name: .customLong("dead-zone"), parsing: .unconditional, help: ArgumentHelp("Tilts smaller than this roll nothing, degrees from the neutral (0 to 15; 0 as shipped).", valueName: "degrees"))
    var deadZone: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Smooth the tilt over this time, seconds (0 to 0.5; 0 as shipped): steadier, and that much later.", valueName: "seconds"))
    var smoothing: Double?

    @Option(help: ArgumentHelp("Turn the tilt round: x (left and right), y (forward and back), xy, or none.", valueName: "axes"))
    var invert: InvertedAxes?

    @Flag(help: "Show live figures on the status line: physics tick lateness p50/p99, frame period and cost, sample age p50/p99, samples dropped.")
    var stats = false

    func validate() throws {
        if [maze != nil, level != nil, campaign != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--maze, --level and --campaign each choose what to play: give one")
        }
        if start != nil && (maze != nil || level != nil) {
            throw ValidationError("--start picks a campaign level: it goes without --maze and --level")
        }
        if let start, campaign == nil, !(1 ... Campaign.levels.count).contains(start) {
            throw ValidationError("--start must be a campaign level, 1 to \(Campaign.levels.count); `tiltmaze levels` lists them")
        }
        if let start, start < 1 { throw ValidationError("--start counts levels from 1") }
        do {
            try MazeGenerator.validate(width: size.width, height: size.height)
        } catch {
            throw ValidationError("--size: \(error)")
        }
        if headless, case .replay = sensor.source {} else if headless {
            throw ValidationError("--headless plays a recording: give --source replay:FILE")
        }
        guard (30...2_000).contains(physicsRate) else {
            throw ValidationError("--physics-rate must be between 30 and 2000 steps per second")
        }
        if let screenshotLimit, screenshotLimit < 0 { throw ValidationError("--screenshot-limit must be 0 or more") }
        if let sensitivity, !TiltFeel.sensitivities.contains(sensitivity) { throw ValidationError("--sensitivity must be between 0.25 and 4") }
        if let deadZone, !TiltFeel.deadZones.contains(deadZone) { throw ValidationError("--dead-zone must be between 0 and 15 degrees") }
        if let smoothing, !TiltFeel.smoothings.contains(smoothing) { throw ValidationError("--smoothing must be between 0 and 0.5 seconds") }
    }

    /// `saved` with what the options set for this game.
    func feel(from saved: TiltFeel) -> TiltFeel {
        var feel = saved
        if let sensitivity { feel.sensitivity = sensitivity }
        if let deadZone { feel.deadZone = deadZone }
        if let smoothing { feel.smoothing = smoothing }
        if let invert {
            feel.invertX = invert == .x || invert == .xy
            feel.invertY = invert == .y || invert == .xy
        }
        return feel
    }

    private func sayIfClosed(_ playlist: Playlist) {
        if let start, playlist.current != start - 1 {
            printError("level \(start) is not open yet: win level \(playlist.unlocked) first; starting at level \(playlist.current + 1)")
        }
    }

    func run() throws {
        let stateFolder = ProgressStore.folder(environment: ProcessInfo.processInfo.environment)
        let store = stateFolder.path.map(ProgressStore.init(directory:))
        // Said before the game takes the screen, where records would be kept: a random maze and a headless game keep none.
        if case .refused(let refusal) = stateFolder, maze == nil, !headless {
            printError(refusal.problem(ProgressStore.contents) + "; this game keeps no records")
        }
        let playlist: Playlist
        if let maze {
            // Validated above: the size is in range. No record: random mazes are too many to remember.
            let level = try MazeGenerator.generate(seed: maze.seed ?? UInt64.random(in: 0 ... 999_999),
                                                   width: size.width, height: size.height)
            playlist = .single(level, key: nil, store: nil)
        } else if let path = self.level {
            let level = try loadLevel(path)
            playlist = .single(level, key: LevelKey.file(level), store: store)
        } else if let folder = campaign {
            let levels = try loadCampaign(folder)
            if let start, start > levels.count {
                throw ExitStatus.report("--start \(start): \(folder) holds \(levels.count) level\(levels.count == 1 ? "" : "s"); `tiltmaze levels --campaign \(folder)` lists them",
                                        as: .usage)
            }
            if headless {
                playlist = .single(levels[(start ?? 1) - 1], key: nil, store: nil)
            } else {
                playlist = .campaign(folder: levels, store: store, start: start.map { $0 - 1 })
                sayIfClosed(playlist)
            }
        } else if headless {
            // A headless game is the recording's outcome alone: no records read or kept.
            playlist = .single(Campaign.levels[(start ?? 1) - 1].level, key: nil, store: nil)
        } else {
            playlist = .campaign(store: store, start: start.map { $0 - 1 })
            sayIfClosed(playlist)
        }
        let level = playlist.level
        if headless, case .replay(let path) = sensor.source {
            // No stored calibration: the outcome depends on the file alone.
            let recording = try reportingFailure { try RecordingFile.load(path) }
            print(HeadlessGame.run(level: level, samples: recording.samples, rate: physicsRate).jsonLine)
            return
        }

        var calibration: StoredCalibration?
        var displaySummaries: [String] = []
        let environment = ProcessInfo.processInfo.environment
        // Said now, before the game takes the screen, and once: at the end no save is tried.
        let config = ConfigDirectory.writability(environment: environment)
        if let problem = config.problem { printError(problem + "; this game plays without saving them") }
        let feelStore = FeelStore.standard(environment: environment)
        let savedFeel = feelStore?.load()
        // A bad settings file is set aside by the load: said at start too, as the game plays as shipped.
        if let problem = savedFeel?.problem { printError(problem) }
        let outcome = try reportingFailure { () throws -> GameSession.Outcome in
            let chosen = try sensor.makeSource(defaultRate: 200)
            calibration = StoredCalibration(for: chosen.source, environment: environment, mayWrite: config.maySave,
                                            report: printError)
            // The displays first: if they cannot be had, no thread has started yet.
            let displays = try OpenDisplays(self.display, level: level, sensorDescription: chosen.description, showStatistics: stats)
            defer {
                displays.restore()
                // After the restore, which waits for the last flip: every flip is counted.
                if stats { displaySummaries = displays.summaries }
            }
            let sensorLabel = chosen.description + displays.label
            let display = displays.display
            let pads = connectedPads()
            let size = displays.framebufferSize ?? (1280, 800)
            let screenshots = Screenshots(directory: screenshotDir, level: level, sensorName: sensorLabel,
                                          width: size.width, height: size.height, limit: screenshotLimit)
            return try FrameLoop(display: display, playlist: playlist, feed: SensorFeed(chosen), calibration: calibration,
                                 physicsRate: physicsRate, pads: [pads], player: player,
                                 feel: feel(from: savedFeel?.value ?? .standard), showStatistics: stats,
                                 screenshots: screenshots).run()
        }
        for line in displaySummaries { printError(line) }
        if let problem = calibration?.loaded.problem { printError(problem) }
        if let problem = savedFeel?.problem { printError(problem) }
        if let feel = outcome.feel, let feelStore, savedFeel?.maySave ?? false, config.maySave {
            if case .failure(let problem) = feelStore.save(feel) { printError("\(problem)") }
        }
        if !config.maySave {
            // Only what the player changed is worth a word: the start said why nothing is kept.
            let lost = (outcome.feel != nil ? ["the settings changed"] : [])
                + (calibration?.wouldChange(to: outcome.calibration) == true ? ["the calibration learnt"] : [])
            if !lost.isEmpty { printError("not saved, as said at the start: \(lost.joined(separator: " and ")) in this game") }
        }
        for problem in playlist.problems { printError(problem) }
        if let reason = outcome.failure { throw ExitStatus.report(reason, as: .unavailable) }
        if let reason = outcome.sensorFailure { throw ExitStatus.report(reason, as: .sensorFailed) }
        // The terminal is restored by now: say how it went on the normal screen.
        if let time = outcome.winningTime {
            print("You escaped \"\(outcome.levelTitle)\" in \(MotionSampleText.decimal(time, digits: 2)) s.")
        }
    }
}

extension PlayerStyle: ExpressibleByArgument {}

/// `--invert`'s axes.
enum InvertedAxes: String, ExpressibleByArgument, CaseIterable {
    case x, y, xy, none
}

/// The level at `path` (the bundled one when nil); a file that cannot be
/// read (66) or does not parse (65) is reported and ends the program.
func loadLevel(_ path: String?) throws -> Level {
    try reportingFailure { try LevelFile.load(path) }
}

/// The levels of a campaign folder; a folder that cannot be used (66) or a
/// level in it that does not parse (65) is reported and ends the program.
func loadCampaign(_ folder: String) throws -> [Level] {
    try reportingFailure { try LevelFolder.load(folder) }
}

func printError(_ message: String) {
    StandardStream.error.write("tiltmaze: \(message)\n")
}
