import ArgumentParser
import MotionDevices

/// The sensor options every command that reads motion takes, with their
/// checks, written once: `--source`, `--iio-uri` and `--sensor-rate`.
struct SourceOptions: ParsableArguments {
    @Option(help: "Motion source: auto, sim, iio, iio:NAME, evdev, evdev:PATH or replay:FILE (a recording, in real time). auto uses the best sensor found, else the simulated board.")
    var source: SensorRequest = .auto

    @Option(name: .customLong("iio-uri"), help: ArgumentHelp("Read the IIO sensor of another machine through its iiod: a libiio URI such as ip:raspberrypi.local (as libiio's tools take -u).", valueName: "uri"))
    var iioURI: String?

    @Option(help: ArgumentHelp("Sensor rate, samples per second: the nearest a driver offers at or above it, the simulated board's exactly (default: 200; 100 for calibrate and colortilt, whose models run at 100 Hz).", valueName: "hz"))
    var sensorRate: Double?

    static let rates: ClosedRange<Double> = 10 ... 5_000

    func validate() throws {
        // --iio-uri with a source that is not IIO is refused where the source is made.
        if let sensorRate, !Self.rates.contains(sensorRate) {
            throw ValidationError("--sensor-rate must be between 10 and 5000 samples per second")
        }
    }

    /// The rate asked for, else the command's own default.
    func rate(default fallback: Double) -> Double { sensorRate ?? fallback }

    /// Makes the source asked for (not started).
    func makeSource(defaultRate: Double) throws -> ChosenSource {
        try source.makeSource(rate: rate(default: defaultRate), iioURI: iioURI)
    }

    /// Refuses a recording, for the commands that need a live sensor.
    func requireLive(_ why: String) throws {
        if case .replay = source { throw ValidationError(why) }
    }
}
