// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import MotionDevices
import SystemCalls

/// The sensor options every command that reads motion takes, with their
/// checks, written once: `--source`, `--iio-uri` and `--sensor-rate`.
struct SourceOptions: ParsableArguments {
    @Option(help: "Motion source: auto, sim, iio, iio:NAME, evdev, evdev:PATH, i2c, i2c:BUS (a Sense HAT's LSM9DS1 through i2c-dev) or replay:FILE (a recording, in real time). auto uses the best sensor found, else the simulated board.")
    var source: SensorRequest = .auto

    @Option(name: .customLong("iio-uri"), help: ArgumentHelp("Read the IIO sensor of another machine through its iiod: a libiio URI such as ip:raspberrypi.local (as libiio's tools take -u).", valueName: "uri"))
    var iioURI: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Sensor rate, samples per second: the nearest a driver offers at or above it, the simulated board's exactly (default: 200; 100 for calibrate and colortilt, whose models run at 100 Hz).", valueName: "hz"))
    var sensorRate: Double?

    @Flag(name: .customLong("chip-fusion"), help: "Tilt by the sensor's own fusion where it has one (a BNO055's gravity vector) instead of TiltMaze's fusion of its readings. Shakes are not seen then: the chip's gravity leaves the pushes out.")
    var chipFusion = false

    @Option(name: .customLong("wait-for-sensor"), parsing: .unconditional, help: ArgumentHelp("With --source auto, iio or evdev: when no sensor is there yet, look again for up to this many seconds (auto then falls back to the simulated board). For a board that boots into the game, where the sensor's driver may bind after the game starts.", valueName: "seconds"))
    var waitForSensor: Double = 0

    static let rates: ClosedRange<Double> = 10 ... 5_000
    static let waits: ClosedRange<Double> = 0 ... 600

    func validate() throws {
        // --iio-uri with a source that is not IIO is refused where the source is made.
        if let sensorRate, !Self.rates.contains(sensorRate) {
            throw ValidationError("--sensor-rate must be between 10 and 5000 samples per second")
        }
        if !Self.waits.contains(waitForSensor) {
            throw ValidationError("--wait-for-sensor must be between 0 and 600 seconds")
        }
        if waitForSensor > 0 {
            switch source {
            case .sim, .replay: throw ValidationError("--wait-for-sensor waits for a sensor to appear: use it with --source auto, iio, evdev or i2c")
            case .auto, .iio, .evdev, .i2c: break
            }
        }
    }

    /// The rate asked for, else the command's own default.
    func rate(default fallback: Double) -> Double { sensorRate ?? fallback }

    /// Makes the source asked for (not started). With `--wait-for-sensor`,
    /// a sensor not found (or, for auto, the simulated board chosen for want
    /// of one) is looked for again four times a second until the time is up;
    /// then the last answer stands.
    func makeSource(defaultRate: Double) throws -> ChosenSource {
        let rate = rate(default: defaultRate)
        let deadline = MonotonicClock.now() + Int64(waitForSensor * 1e9)
        var said = false
        while true {
            let lastLook = MonotonicClock.now() >= deadline
            do {
                let chosen = try source.makeSource(rate: rate, iioURI: iioURI, chipFusion: chipFusion, calibrations: Self.calibrations)
                if lastLook || chosen.simulatedBoard == nil { return chosen }
            } catch {
                if lastLook { throw error }
            }
            if !said {
                let line = "no motion sensor yet: looking again for up to \(Int(waitForSensor.rounded(.up))) s (--wait-for-sensor)"
                printError(line)
                // Started by the console unit, errors go to the journal: the
                // player looking at the screen is told too.
                if StandardStream.output.isTerminal && !StandardStream.error.isTerminal {
                    StandardStream.output.write("tiltmaze: \(line)\n")
                }
                said = true
            }
            MonotonicClock.sleep(until: min(MonotonicClock.now() + 250_000_000, deadline))
        }
    }

    /// This user's calibration files: a live source applies the mount matrix
    /// and the accelerometer calibration kept there.
    static var calibrations: CalibrationStore? { CalibrationStore.standard(environment: ProcessInfo.processInfo.environment) }

    /// Refuses a recording, for the commands that need a live sensor.
    func requireLive(_ why: String) throws {
        if case .replay = source { throw ValidationError(why) }
    }
}
