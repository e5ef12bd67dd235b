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
import Handoff

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Set the neutral tilt: hold the board as you like to play and choose Calibrate.",
        discussion: """
            A test square rolls with the tilt measured from the neutral.
            Calibrate (c) takes the way the board is held now as level (at most
            30° from level: steeper is clamped, and the screen says so); Zero
            (z) goes back to level; Correction (o) turns the neutral off and on
            without forgetting it; Done (q) saves it for this sensor in
            $XDG_CONFIG_HOME/tiltmaze/calibration (docs/sensors.md, "Calibration").
            The arrows and Enter, a gamepad's D-pad and A/Cross, or the Sense
            HAT joystick choose too. With the simulated board, WASD tilt it.
            With --compass: the magnetometer instead. Turn the board through a
            figure of eight, face up, on edge and upside down, while the screen
            fills in the directions covered and the accuracy (CoreMotion's
            levels: uncalibrated, low, medium, high) rises; Save (s) keeps its
            hard and soft iron for this sensor beside the neutral, Again (a)
            starts over, Quit (q) keeps nothing. The heading uses it from then on.

            With --gyroscope, --accelerometer or --orientation, the calibrations
            on demand (docs/sensors.md, "Calibrating on demand"): put the board
            down and keep it still for 3 s (the gyroscope's bias, with its
            uncertainty); rest it still on each of its six faces in turn (the
            accelerometer's bias and scale); lay it flat, face up, then tip the
            right edge down (the board's axes, kept for this user instead of
            udev's or the driver's mount matrix, with the udev property line
            for whoever wants it system-wide). The screen fills in as the poses
            are held; Save (s) keeps the result. --headless asks on standard
            error instead, prints one line and saves it; with --source
            replay:FILE the poses are found in the recording, and the result
            is kept for the device the recording names. On the simulated
            board the arrows tilt it on these screens (space levels it); headless
            no key reaches it, so --orientation is refused there (status 69).
            """
    )

    @OptionGroup(title: "Sensor")
    var sensor: SourceOptions

    @Flag(help: "Calibrate the magnetometer (hard and soft iron) instead of the neutral tilt.")
    var compass = false

    @Flag(help: "Measure the gyroscope's bias: the board kept still for 3 s.")
    var gyroscope = false

    @Flag(help: "Fit the accelerometer's bias and scale: the board held still on each of its six faces.")
    var accelerometer = false

    @Flag(help: "Find the board's axes: lying flat, face up, then the right edge tipped down.")
    var orientation = false

    @Flag(help: "With --gyroscope, --accelerometer or --orientation: no screen; ask on standard error, print the result in one line and save it (status 65 when refused).")
    var headless = false

    @Option(help: "Where to draw: auto, terminal, kms, kms:/dev/dri/cardN, fb, fb:/dev/fbN, sensehat, or a screen and the matrix: kms,sensehat.")
    var display: DisplaySelection = DisplaySelection(screen: .auto)

    /// The calibration on demand asked for, if any.
    var onDemand: OnDemandCalibration? {
        gyroscope ? .gyroscope : accelerometer ? .accelerometer : orientation ? .orientation : nil
    }

    func validate() throws {
        if [compass, gyroscope, accelerometer, orientation].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --compass, --gyroscope, --accelerometer and --orientation")
        }
        if sensor.chipFusion && onDemand != nil {
            throw ValidationError("--chip-fusion reads the chip's own gravity, not its accelerometer or gyroscope: calibrate without it")
        }
        if headless && onDemand == nil {
            throw ValidationError("--headless goes with --gyroscope, --accelerometer or --orientation")
        }
        if onDemand == nil {
            try sensor.requireLive("calibrate needs a live sensor: a replay keeps no calibration (--gyroscope, --accelerometer and --orientation read one)")
        }
    }

    func run() throws {
        // Said before anything is held: a calibration made here could not be kept.
        if let problem = ConfigDirectory.writability(environment: ProcessInfo.processInfo.environment).problem {
            printError(problem + "; a calibration made now is shown but cannot be kept")
        }
        if let kind = onDemand {
            try headless ? runHeadless(kind) : runScreen(kind)
            return
        }
        if compass {
            try runCompass()
            return
        }
        var saved: String?
        var stored: StoredCalibration?
        var final: MotionStatus?
        try runPanel(sensor: sensor, display: display) { chosen, label in
            let (loop, calibration) = modelLoop(CalibrationSquare(), on: chosen, name: "tiltmaze-calib")
            stored = calibration
            return (CalibrateScreen(loop: loop, sensorName: label, board: SensorFeed(chosen).board),
                    { final = loop.status.read().value })
        }
        if let stored, let final {
            saved = stored.save(final.calibration)
            if let problem = stored.loaded.problem { printError(problem) }
            let reference = final.calibration.reference
            print("Neutral: \(reference.summary); correction \(reference.isEnabled ? "on" : "off")"
                  + (saved.map { "; saved in \($0)" } ?? (stored.identity == nil ? "" : "; unchanged")))
        }
    }
}

extension CalibrateCommand {
    /// The compass screen; saves the magnetometer's calibration when the player chose Save.
    func runCompass() throws {
        var stored: StoredCalibration?
        var screen: CompassScreen?
        try runPanel(sensor: sensor, display: display) { chosen, label in
            let (loop, calibration) = modelLoop(CompassCalibration(), on: chosen, name: "tiltmaze-compass")
            stored = calibration
            let made = CompassScreen(loop: loop, sensorName: label,
                                     hasMagnetometer: chosen.source.scales?.hasMagnetometer ?? true)
            screen = made
            return (made, {})
        }
        guard let stored, let chosen = screen?.chosen else {
            print("Compass: nothing saved")
            return
        }
        if let problem = stored.loaded.problem { printError(problem) }
        let saved = stored.save(magnetometer: chosen)
        print("Compass: \(chosen.accuracy.name) accuracy, offset \(MotionSampleText.fixed(chosen.offset, decimals: 1)) µT"
              + (saved.map { "; saved in \($0)" } ?? (stored.identity == nil ? "; this sensor keeps no calibration" : "; not saved")))
    }
}

struct ColorTiltCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colortilt",
        abstract: "ColorTilt: shake to pick a colour, tilt or turn to set its brightness.",
        discussion: """
            A shake beyond 1.3 g along an axis picks one of six colours by the
            axis and its sign. With the accelerometer on (a, or a pad's D-pad
            left), how far the board leans sets the intensity; with the
            gyroscope on (g, or D-pad right), how fast it turns does. The
            sensor is read at 100 Hz. With the simulated board, the arrows tilt
            it and 1–6 shake it. q, Esc, B/Circle or Start leave.
            """
    )

    @OptionGroup(title: "Sensor")
    var sensor: SourceOptions

    @Option(help: "Where to draw: auto, terminal, kms, kms:/dev/dri/cardN, fb, fb:/dev/fbN, sensehat, or a screen and the matrix: kms,sensehat.")
    var display: DisplaySelection = DisplaySelection(screen: .auto)

    func run() throws {
        try runPanel(sensor: sensor, display: display) { chosen, label in
            let (loop, _) = modelLoop(ColorTilt(), on: chosen, name: "tiltmaze-color")
            let feed = SensorFeed(chosen)
            return (ColorTiltScreen(loop: loop, sensorName: label, board: feed.board, shaker: feed.shaker), {})
        }
    }
}

/// `model` run at 100 Hz on the samples of `chosen`, starting from the
/// sensor's stored calibration, which is returned for saving what changed.
func modelLoop<M: MotionModel>(_ model: M, on chosen: ChosenSource, name: String) -> (MotionModelLoop<M>, StoredCalibration) {
    let calibration = StoredCalibration(for: chosen.source, environment: ProcessInfo.processInfo.environment, report: printError)
    return (MotionModelLoop(model: model, samples: chosen.source.samples, rate: 100, estimator: calibration.estimator(), name: name),
            calibration)
}

/// Opens the sensor and the displays, runs a panel screen made by `make`
/// until the player leaves, then calls the `finished` it returned; errors
/// are reported in one line and end the program with the status their kind calls for.
/// `refuse` may reject the sensor chosen before any display is opened.
func runPanel<S: PanelScreen>(sensor: SourceOptions, display selection: DisplaySelection,
                              refuse: (ChosenSource) throws -> Void = { _ in },
                              _ make: (ChosenSource, String) -> (S, () -> Void)) throws {
    try reportingFailure {
        let chosen = try sensor.makeSource(defaultRate: 100)
        try refuse(chosen)
        let displays = try OpenDisplays(selection, level: nil, sensorDescription: chosen.description, showStatistics: false)
        defer { displays.restore() }
        let (screen, finished) = make(chosen, chosen.description + displays.label)
        let pads = connectedPads()
        let display = displays.display
        let failure = try PanelLoop.run(screen, display: display, input: display, source: chosen.source, pads: [pads])
        finished()
        displays.restore()
        if let reason = failure { throw ExitStatus.report(reason, as: .sensorFailed) }
    }
}
