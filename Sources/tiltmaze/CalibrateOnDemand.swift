// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import Session
import MotionCore
import MotionDevices
import SystemCalls

extension CalibrateCommand {
    /// How long a live headless calibration waits for the poses it needs.
    static let liveTimeout: Int64 = 120_000_000_000

    /// A calibration on demand without a screen: from a recording, all of
    /// it at once; from a live sensor, asking on standard error until its
    /// poses are held. Prints the result's line and saves it.
    func runHeadless(_ kind: OnDemandCalibration) throws {
        try reportingFailure {
            let identity: String?
            let delivery: OnDemandCalibration.Delivery
            let outcome: Result<OnDemandCalibration.Outcome, CalibrationRefusal>
            if case .replay(let path) = sensor.source {
                // All of it at once: a recording's poses need no waiting for.
                let recording = try RecordingFile.load(path)
                identity = recording.header.identity
                delivery = OnDemandCalibration.Delivery(recording.header)
                try Self.refuseImpossible(kind, delivery, of: path)
                outcome = kind.outcome(of: recording)
            } else {
                let chosen = try sensor.makeSource(defaultRate: 100)
                try Self.refuseSimulated(kind, chosen)
                try Self.refuseUntippable(kind, chosen)
                printError("calibrating \(kind.rawValue) with \(chosen.description)")
                let source = chosen.source
                try source.start()
                defer { source.stop() }
                identity = source.calibrationIdentity
                delivery = OnDemandCalibration.Delivery(source.scales)
                try Self.refuseImpossible(kind, delivery, of: chosen.description)
                outcome = try Self.live(kind, source: source, delivery: delivery)
            }
            let found: OnDemandCalibration.Outcome
            switch outcome {
            case .success(let o): found = o
            case .failure(let refusal): throw ExitStatus.report("\(kind.rawValue) calibration refused: \(refusal)", as: .badInput)
            }
            print(found.line)
            if case .orientation(let mount) = found {
                printError("for every user, as a udev rule: ACCEL_MOUNT_MATRIX=\(mount.propertyText)")
            }
            try Self.keep(found, for: identity, delivery: delivery)
        }
    }

    /// Refuses, before anything is shown, what the simulated board cannot
    /// give: its tilt stops short of the faces, and its accelerometer reads
    /// exactly anyway. (Its gyroscope and axes can be calibrated, pointless
    /// as that is: a way to try the screens without an IMU.)
    static func refuseSimulated(_ kind: OnDemandCalibration, _ chosen: ChosenSource) throws {
        guard kind == .accelerometer, chosen.simulatedBoard != nil else { return }
        throw ExitStatus.report("accelerometer calibration refused: \(chosen.description) reads exactly and never reaches "
                                + "its faces: there is nothing to calibrate. Attach an IMU (`tiltmaze devices` lists the sensors "
                                + "found), or calibrate from a recording: --source replay:FILE", as: .unavailable)
    }

    /// Refuses, headless, the orientation on the simulated board: only keys
    /// tip it, and no screen reads them, so its second pose would never
    /// come. (Its gyroscope needs no pose: kept still, it is measured.)
    static func refuseUntippable(_ kind: OnDemandCalibration, _ chosen: ChosenSource) throws {
        guard kind == .orientation, chosen.simulatedBoard != nil else { return }
        throw ExitStatus.report("orientation calibration refused: \(chosen.description) is tipped only by the keys, and "
                                + "--headless reads none: it would lie flat for ever. Run it on the screen, where the arrows "
                                + "tip it (tiltmaze calibrate --orientation --source sim), attach an IMU (`tiltmaze devices` "
                                + "lists the sensors found), or calibrate from a recording: --source replay:FILE", as: .unavailable)
    }

    /// Refuses a calibration no poses could make of what `sensor` delivers
    /// (an accelerometer scaled by gravity), saying what can still be done.
    static func refuseImpossible(_ kind: OnDemandCalibration, _ delivery: OnDemandCalibration.Delivery, of sensor: String) throws {
        guard let refusal = kind.impossible(with: delivery) else { return }
        throw ExitStatus.report("\(kind.rawValue) calibration refused: \(sensor): \(refusal). Its gyroscope and axes "
                                + "can still be calibrated (--gyroscope, --orientation)", as: .unavailable)
    }

    /// The calibration's screen; saves what the player chose to.
    func runScreen(_ kind: OnDemandCalibration) throws {
        var screen: OnDemandScreen?
        var identity: String?
        try runPanel(sensor: sensor, display: display, refuse: { try Self.refuseSimulated(kind, $0) }) { chosen, label in
            let loop = MotionModelLoop(model: OnDemandCalibrationModel(), samples: chosen.source.samples, rate: 100,
                                       name: "tiltmaze-\(kind.rawValue)")
            identity = chosen.calibrationIdentity
            let source = chosen.source
            let made = OnDemandScreen(loop: loop, kind: kind, sensorName: label, board: SensorFeed(chosen).board) {
                OnDemandCalibration.Delivery(source.scales)
            }
            screen = made
            return (made, {})
        }
        guard let screen, let outcome = screen.chosen else {
            print("\(kind.rawValue): nothing saved")
            return
        }
        print(outcome.line)
        if case .orientation(let mount) = outcome {
            print("for every user, as a udev rule: ACCEL_MOUNT_MATRIX=\(mount.propertyText)")
        }
        try reportingFailure { try Self.keep(outcome, for: identity, delivery: screen.delivered) }
    }

    /// Feeds `source`'s samples to the calibration until it has what it
    /// needs, saying what to do whenever that changes; refused after two minutes.
    static func live(_ kind: OnDemandCalibration, source: any MotionSource,
                     delivery: OnDemandCalibration.Delivery) throws -> Result<OnDemandCalibration.Outcome, CalibrationRefusal> {
        var finder = StillStretchFinder()
        let deadline = MonotonicClock.now() + liveTimeout
        var said = ""
        var progress = CalibrationProgress(kind, delivery: delivery, stretches: [], ongoing: nil)
        var reader = SampleReader(source)
        var nextLook = MonotonicClock.now()
        reading: while true {
            let stop = reader.read(until: deadline) { finder.add($0) }
            switch stop {
            case .failed(let failure): throw ExitStatus.report(failure, as: .sensorFailed)
            case .deadline, .ended: break reading
            case nil, .interrupted: break
            }
            // What to say is judged a few times a second, not on every batch of samples.
            guard MonotonicClock.now() >= nextLook else { continue }
            nextLook = MonotonicClock.now() + 50_000_000
            progress = CalibrationProgress(kind, delivery: delivery, stretches: finder.stretches, ongoing: finder.ongoing)
            if progress.isComplete { break }
            if progress.prompt != said {
                said = progress.prompt
                printError(said)
            }
        }
        progress = CalibrationProgress(kind, delivery: delivery, stretches: finder.stretches, ongoing: finder.ongoing)
        return progress.outcome
    }

    /// Saves `outcome` in the calibration of the device `identity`, saying
    /// where on standard error; a save that fails, or a bad file that could
    /// not be set aside, ends the program with status 73 (the result was
    /// printed, but is not kept).
    static func keep(_ outcome: OnDemandCalibration.Outcome, for identity: String?,
                     delivery: OnDemandCalibration.Delivery) throws {
        guard let identity else {
            printError("nothing saved: the recording names no device (no \"identity:\" in its header)")
            return
        }
        guard let store = CalibrationStore.standard(environment: ProcessInfo.processInfo.environment) else {
            let why = ConfigDirectory.writability(environment: ProcessInfo.processInfo.environment).problem
                ?? "neither XDG_CONFIG_HOME nor HOME is an absolute path"
            throw ExitStatus.report("nothing saved: \(why)", as: .cannotWrite)
        }
        let loaded = store.load(identity)
        if let problem = loaded.problem { printError(problem) }
        guard loaded.maySave else {
            throw ExitStatus.report("nothing saved: \(store.path(for: identity)) could not be set aside", as: .cannotWrite)
        }
        let updated = OnDemandCalibration.kept(outcome, in: loaded.calibration, delivery: delivery)
        switch store.save(updated, for: identity) {
        case .success(let path):
            let reset = updated.reference != loaded.calibration.reference ? "; the neutral tilt is level again (set it anew: tiltmaze calibrate)" : ""
            printError("saved for \(identity) in \(path)\(reset)")
        case .failure(let error):
            throw ExitStatus.report("\(error)", as: .cannotWrite)
        }
    }
}
