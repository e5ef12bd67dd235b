// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import ArgumentParser
import FoundationEssentials
import MotionCore
import MotionDevices
import Realtime
import Handoff

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show live readings from a motion sensor in SI units.",
        discussion: """
            Without --json: one line, refreshed four times a second, with the
            newest acceleration (m/s²) and rotation rate (rad/s), the newest
            magnetic field (µT) where the sensor has a magnetometer, the measured
            sample rate, how many samples were dropped (the game fell behind)
            and how many were rejected as impossible, and the CPU time this
            process spends per sample since the first (all its threads: the
            sensor's and monitor's own). In a terminal the line is fitted to
            its width, so it never wraps: shorter labels, then the least
            needed figures (cpu first) left out.
            With --json: every sample as one JSON object a line, with the fused
            motion (docs/sensors.md, "Motion as CoreMotion gives it"):
              {"t_ns":…,"accel":[x,y,z],"gyro":[x,y,z] or null,"device":"…",
               "gravity":[x,y,z],"attitude":[w,x,y,z],"user_accel":[x,y,z],
               "rotation_rate":[x,y,z] or null}
            plus "magn":[x,y,z] (µT) on the samples that bring a new magnetometer
            reading, and "shake":{"axis":"x","sign":"+","g":1.5} on the sample a
            shake fires. Every line ends with
              "pitch":p,"roll":r,"yaw":y,"calibrated_gravity":[x,y,z]}
            the attitude's angles in radians as the library's Attitude (and
            CoreMotion) gives them: pitch + when the top edge rises, roll + when
            the right edge goes down, yaw + anticlockwise seen from above; and
            gravity (m/s²) relative to the neutral stored for this sensor (as
            DeviceMotion.calibratedGravity: the board held at its neutral reads
            as level; equal to "gravity" with no neutral stored, and for a replay).
            With --reference, the attitude is given in that frame (z up in all):
              arbitrary       x where the board's x pointed at start (the gyroscope
                              keeps it; it drifts slowly)
              corrected       the same, held by the magnetometer
              magnetic-north  x to magnetic north
            and each line adds, before the angles, "reference":"…","heading":h (degrees clockwise
            from magnetic north of the board's top edge; −1 in the other frames or
            before north is found) and "magnetic_field":{"field":[x,y,z] (µT, offset
            taken out),"accuracy":"uncalibrated|low|medium|high"} or null. Without
            --json, the heading is shown on the line.
            With --source replay:FILE and --json, the whole file is printed as
            fast as it can be, then monitor ends; with --realtime too, each
            sample when its time comes, as the recording's timestamps space
            them (the same lines, paced: to try a program on a recording).
            With the simulated board, the arrows (or WASD) tilt it and space
            levels it, as in the game, when standard input is a terminal;
            otherwise it stays level, and standard error says so once.
            Stop with Ctrl-C, or give --samples.
            """
    )

    @OptionGroup(title: "Sensor")
    var sensor: SourceOptions

    @Flag(help: "Print every sample as a line of JSON.")
    var json = false

    @Flag(help: "With --source replay:FILE: play the recording at its own pace, each sample when its timestamp comes, not as fast as it can be.")
    var realtime = false

    @Option(parsing: .unconditional, help: "Stop after reading this many samples. With --json each is a line; the text display shows the newest four times a second (and the last one), not one line a sample.")
    var samples: Int?

    @Option(help: ArgumentHelp("The frame the attitude is given in: arbitrary, corrected or magnetic-north.",
                               valueName: "frame"))
    var reference: ReferenceFrameArgument?

    func validate() throws {
        if let samples, samples < 1 { throw ValidationError("--samples must be at least 1") }
        if realtime, case .replay = sensor.source {} else if realtime {
            throw ValidationError("--realtime paces a recording by its timestamps: it needs --source replay:FILE")
        }
    }

    func run() throws {
        if json, case .replay(let path) = sensor.source {
            try printReplay(path)
            return
        }
        let json = self.json
        let chosen = try startedSource(sensor, defaultRate: 200) { chosen in
            if !json { printError("reading \(chosen.description); Ctrl-C stops") }
        }
        let sensor = chosen.source
        defer { sensor.stop() }
        let boardKeys = SimulatedBoardKeys(chosen)
        defer { boardKeys.restore() }
        let neutral = json ? MonitorJSON.storedNeutral(of: sensor) : .level

        var seen = 0
        var processor = MotionProcessor(referenceFrame: reference?.frame ?? .xArbitraryZVertical)
        var meter = SampleRateMeter()
        var heading: Double?
        var newest: MotionSample?
        var newestField: Vector3?
        var cpuAtFirst: Int64 = 0
        var nextLine = MonotonicClock.now()
        let isTTY = StandardStream.output.isTerminal
        var failure: String?
        var shownInterruption: String?
        var shownNotice: String?
        var reader = SampleReader(sensor)
        reading: while !StopSignals.isRequested {
            var output = ""
            var reachedLimit = false
            // At most a quarter second: the live line's refresh, and how soon Ctrl-C is heeded while no sample comes.
            let stop = reader.read(until: MonotonicClock.now() + 250_000_000) { sample in
                guard !reachedLimit else { return }
                seen += 1
                if seen == 1 { cpuAtFirst = ProcessCPUClock.now() }
                meter.add(sample.timestamp)
                newest = sample
                if sample.hasMagneticField { newestField = sample.magneticField }
                if json || reference != nil {
                    let (motion, shake) = processor.add(sample)
                    heading = motion.heading
                    if json { output += line(sample, device: sensor.displayName, motion: motion, shake: shake, neutral: neutral) + "\n" }
                }
                if let samples, seen >= samples { reachedLimit = true }
            }
            if case .failed(let f) = stop { failure = f }
            // How it reads now, when that changed (a silent trigger left for polling): said once.
            if let notice = reader.health.notice, notice != shownNotice {
                printError("\(chosen.description): \(notice)")
                shownNotice = notice
            }
            // A controller that went away: say so once, and again when it is back.
            let interruption = reader.health.interruption
            if interruption != shownInterruption, failure == nil {
                if let interruption { printError(interruption) } else { printError("\(chosen.description) is back") }
                shownInterruption = interruption
            }
            if json, !output.isEmpty {
                StandardStream.output.write(output)
            } else if !json, let s = newest, MonotonicClock.now() >= nextLine || reachedLimit {
                nextLine = MonotonicClock.now() + 250_000_000
                let line = MonitorLiveLine(
                    sample: s, field: newestField, heading: reference?.frame == .xMagneticNorthZVertical ? .some(heading) : nil,
                    rate: meter.rate, dropped: sensor.samples.droppedCount, rejected: sensor.rejectedCount,
                    readFailures: (sensor.retryCount, sensor.failedSampleCount),
                    bus: (sensor as? I2CMotionSource).flatMap { seen > 0 ? ($0.missedCount, Double($0.transferCount) / Double(seen)) : nil },
                    cpuPerSample: seen > 1 ? Double(ProcessCPUClock.now() - cpuAtFirst) / 1000 / Double(seen - 1) : nil
                ).text(width: isTTY ? MonitorLiveLine.terminalWidth() : nil)   // read each refresh: a resized window is followed
                StandardStream.output.write(isTTY ? "\r\u{1b}[K" + line : line + "\n")
            }
            if reachedLimit { break reading }
            switch stop {
            case .failed, .ended: break reading
            case nil, .deadline, .interrupted: continue
            }
        }
        if !json && isTTY { StandardStream.output.write("\n") }
        boardKeys.restore()
        if let failure { throw ExitStatus.report(failure, as: .sensorFailed) }
    }

    /// A sample's JSON line, with the reference frame's part when one was asked for, then the angles and the calibrated gravity.
    func line(_ sample: MotionSample, device: String, motion: FusedMotion, shake: Shake?, neutral: TiltReference) -> String {
        let line = reference.map { MotionSampleText.jsonLine(sample, device: device, motion: motion, shake: shake, frame: $0.frame) }
            ?? MotionSampleText.jsonLine(sample, device: device, motion: motion, shake: shake)
        return MonitorJSON.withAngles(line, motion: motion, neutral: neutral)
    }

    /// Every sample of the recording at `path`, fused, as fast as the output
    /// takes them, or with --realtime each when its time comes. A replay keeps
    /// no calibration: its neutral is level, so its lines are the same anywhere.
    func printReplay(_ path: String) throws {
        let recording = try reportingFailure { try RecordingFile.load(path) }
        var processor = MotionProcessor(referenceFrame: reference?.frame ?? .xArbitraryZVertical)
        var output = ""
        output.reserveCapacity(1 << 16)
        let limit = samples ?? .max
        var pace = realtime ? ReplayPace() : nil
        for (index, sample) in recording.samples.enumerated() where index < limit {
            let (motion, shake) = processor.add(sample)
            output += line(sample, device: recording.header.device, motion: motion, shake: shake, neutral: .level)
            output += "\n"
            if pace != nil {
                pace!.wait(for: sample.timestamp)
                StandardStream.output.write(output)
                output.removeAll(keepingCapacity: true)
            } else if output.utf8.count >= 1 << 16 {
                StandardStream.output.write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        StandardStream.output.write(output)
    }
}

/// `--reference`'s value: a frame by the name `AttitudeReferenceFrame.argument` gives it.
struct ReferenceFrameArgument: ExpressibleByArgument {
    let frame: AttitudeReferenceFrame

    init?(argument: String) {
        guard let frame = AttitudeReferenceFrame(argument: argument) else { return nil }
        self.frame = frame
    }

    static var allValueStrings: [String] { AttitudeReferenceFrame.allCases.map(\.argument) }
    var defaultValueDescription: String { frame.argument }
}
