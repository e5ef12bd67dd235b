// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C
import IIO
import MotionCore

/// What `--source` asks for: `auto`, `sim`, `iio`, `iio:NAME`, `evdev`, `evdev:PATH`, `i2c`, `i2c:BUS` or `replay:FILE`.
public enum SensorRequest: Equatable, Sendable {
    /// The sensor `SensorSelection` chooses; the simulated board when there is none.
    case auto
    /// The simulated board, tilted from the keyboard.
    case sim
    /// An IIO IMU: the first found, or the one whose name (or device id) is given.
    case iio(String?)
    /// An evdev motion node: the first found, or the one at the given path
    /// (`/dev/input/event7`, or just `event7`).
    case evdev(String?)
    /// An LSM9DS1 (the Sense HAT's IMU) read through i2c-dev: the first
    /// found on any bus, or on the bus given (`/dev/i2c-1`, or just `1`).
    case i2c(String?)
    /// A recording (`tiltmaze record`) or a CSV file of samples, played back in real time.
    case replay(String)

    public init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "sim": self = .sim
        case "iio": self = .iio(nil)
        case "evdev": self = .evdev(nil)
        case "i2c": self = .i2c(nil)
        default:
            if argument.hasPrefix("iio:"), argument.count > 4 {
                self = .iio(String(argument.dropFirst(4)))
            } else if argument.hasPrefix("replay:"), argument.count > 7 {
                self = .replay(String(argument.dropFirst(7)))
            } else if argument.hasPrefix("i2c:"), argument.count > 4 {
                let bus = String(argument.dropFirst(4))
                self = .i2c(bus.hasPrefix("/") ? bus : "/dev/i2c-" + (bus.hasPrefix("i2c-") ? String(bus.dropFirst(4)) : bus))
            } else if argument.hasPrefix("evdev:"), argument.count > 6 {
                let path = String(argument.dropFirst(6))
                self = .evdev(path.hasPrefix("/") ? path : "/dev/input/" + path)
            } else {
                return nil
            }
        }
    }

    /// The forms `init(argument:)` takes, for help texts.
    package static let forms = ["auto", "sim", "iio", "iio:NAME", "evdev", "evdev:PATH", "i2c", "i2c:BUS", "replay:FILE"]

    /// The source asked for, and the line that tells the player which it is and why.
    /// Fails, naming what was looked for and what was found, when a named
    /// sensor does not exist or the IIO devices cannot be read.
    ///
    /// - Parameter iioURI: where the IIO devices are (libiio's URI, as its
    ///   tools take `-u`: `ip:raspberrypi.local`, `ip:192.168.1.20:30431`);
    ///   nil for this machine's. With it, `auto` means that machine's first IMU.
    /// - Parameter chipFusion: tilt by the sensor's own fusion (a BNO055's
    ///   gravity) rather than TiltMaze's; refused, saying why, where the
    ///   sensor chosen has none.
    /// - Parameter calibrations: this user's calibration files, whose mount
    ///   matrix and accelerometer calibration a live source applies; nil: none.
    package func makeSource(rate: Double, iioURI: String? = nil, chipFusion: Bool = false,
                            calibrations: CalibrationStore? = nil) throws -> ChosenSource {
        let chosen = try makeSource(rate: rate, iioURI: iioURI, acceleration: chipFusion ? .chipGravity : .accelerometer,
                                    calibrations: calibrations)
        guard chipFusion else { return chosen }
        let imu = (chosen.source as? IIOMotionSource)?.imu ?? (chosen.source as? IIOPolledMotionSource)?.imu
        if let refusal = imu?.chipFusionRefusal
            ?? (imu == nil ? "\(chosen.source.displayName) has no fusion of its own (a BNO055 has): without --chip-fusion TiltMaze fuses its readings itself" : nil) {
            throw SourceError(description: "--chip-fusion: " + refusal)
        }
        return chosen
    }

    private func makeSource(rate: Double, iioURI: String?, acceleration: IIOAccelerationChannels,
                            calibrations: CalibrationStore?) throws -> ChosenSource {
        if let iioURI {
            switch self {
            case .auto: return try Self.iio(nil).makeSource(rate: rate, iioURI: iioURI, acceleration: acceleration, calibrations: calibrations)
            case .sim, .evdev, .i2c, .replay:
                throw SourceError(description: "--iio-uri is for IIO sensors: use it with --source auto, iio or iio:NAME", kind: .misuse)
            case .iio: break
            }
        }
        switch self {
        case .auto:
            return SensorSelection.examine().autoSource(rate: rate, acceleration: acceleration, calibrations: calibrations)
        case .sim:
            return ChosenSource(simulated: SimulatedSource(rate: rate), description: "simulated board (--source sim)")
        case .iio(let wanted):
            let context: IIOContext?
            do {
                context = try SensorSelection.iioContext(uri: iioURI)
            } catch {
                guard let iioURI else { throw error }
                throw SourceError(description: SensorSelection.unreachable(iioURI, error))
            }
            let imus = context.map(IIOIMU.find(in:)) ?? []
            guard let imu = Self.pick(wanted, from: imus) else {
                let found = imus.isEmpty ? "none was found" : "found: " + imus.map(\.description).joined(separator: ", ")
                let what = (wanted.map { "no IIO motion sensor named \($0)" } ?? "no IIO motion sensor") + (iioURI.map { " at \($0)" } ?? "")
                throw SourceError(description: "\(what) (\(found)): is its driver loaded? \(SensorListingHint.iio)")
            }
            let source = IIOIMU.source(for: imu, rate: rate, acceleration: acceleration, calibrations: calibrations)
            return ChosenSource(source: source, description: source.displayName)
        case .replay(let path):
            let source = ReplaySource(recording: try RecordingFile.load(path), path: path)
            return ChosenSource(replay: source, description: source.displayName)
        case .evdev(let wanted):
            let sensors = SensorDiscovery.evdevSensors()
            let node: InputNode
            if let wanted {
                // A path not found by discovery is still tried: opening it
                // gives the precise error (no such node, no permission, not a motion sensor).
                node = sensors.first { $0.motion.path == wanted }?.motion
                    ?? InputNode(path: wanted, name: wanted, uniq: nil, isMotionSensor: true)
            } else if let first = sensors.first {
                node = first.motion
            } else {
                throw SourceError(description: "no evdev motion sensor found (no input node sets INPUT_PROP_ACCELEROMETER); is the controller connected? \(SensorListingHint.evdev)")
            }
            let source = EvdevMotionSource(node: node, calibrations: calibrations)
            return ChosenSource(source: source, description: source.displayName)
        case .i2c(let bus):
            let source = I2CMotionSource(imu: try Self.findI2C(on: bus), rate: rate, calibrations: calibrations)
            return ChosenSource(source: source, description: source.displayName)
        }
    }

    /// The LSM9DS1 on `bus` (a node path), or the first on any bus; fails
    /// saying what each bus looked like.
    static func findI2C(on bus: String?) throws -> I2CIMU {
        let probes: [I2CProbe]
        if let bus {
            guard let number = I2CAdapter.number(ofNode: bus) else {
                throw SourceError(description: "\(bus) is not an I²C bus node (expected /dev/i2c-N, or i2c:N)", kind: .misuse)
            }
            let adapter = I2CAdapter.all().first { $0.number == number }
                ?? I2CAdapter(number: number, name: I2CAdapter.busExists(number) ? "no i2c-dev node" : "no such bus")
            probes = [I2CProbe.probe(adapter, tree: DeviceTree.read())]
        } else {
            // Not naming a bus asks for the one a HAT or breakout sits on, as auto does.
            probes = I2CProbe.probeAll(forAuto: true).probes
        }
        if let imu = probes.lazy.flatMap(\.imus).first { return imu }
        if probes.isEmpty {
            let hint = RaspberryPi.model().map { _ in RaspberryPi.enableI2C } ?? "load i2c-dev (sudo modprobe i2c-dev)"
            throw SourceError(description: "no I²C bus node (/dev/i2c-*) on this machine: \(hint)")
        }
        let found = probes.map { "\($0.adapter): \($0.summary)" }.joined(separator: "; ")
        throw SourceError(description: "no LSM9DS1 found over i2c-dev (\(found)); \(SensorListingHint.i2c)")
    }

    /// By chip name or by any of its device ids; the first when `wanted` is nil.
    static func pick(_ wanted: String?, from imus: [IIOIMU]) -> IIOIMU? {
        guard let wanted else { return imus.first }
        return imus.first { $0.name == wanted || $0.devices.contains { $0.id == wanted || $0.name == wanted } }
    }
}

/// The source `play` or `monitor` uses and the line that tells the player which it is and why.
public struct ChosenSource {
    public let source: any MotionSource
    public let description: String
    /// The source again when it is the simulated board, which the player's keys command.
    public let simulatedBoard: SimulatedSource?

    public init(source: any MotionSource, description: String) {
        self.source = source
        self.description = description
        self.simulatedBoard = nil
        self.recording = nil
    }

    /// The simulated board, described as `description`.
    public init(simulated board: SimulatedSource, description: String) {
        self.source = board
        self.description = description
        self.simulatedBoard = board
        self.recording = nil
    }

    /// A recording played back, described as `description`.
    public init(replay: ReplaySource, description: String) {
        self.source = replay
        self.description = description
        self.simulatedBoard = nil
        self.recording = replay.recording
    }

    /// The recording when the source plays one back: its header names the
    /// device it was made with, which a calibration from it is kept for.
    public let recording: Recording?

    /// Who the calibration of what is read belongs to: the live sensor, or
    /// the device the recording was made with.
    public var calibrationIdentity: String? { source.calibrationIdentity ?? recording?.header.identity }
}

/// No source could be made as asked.
public struct SourceError: Error, CustomStringConvertible {
    /// What went wrong, in the terms a program needs to choose its exit
    /// status; the description says it in the player's.
    public enum Kind: Sendable {
        /// No such sensor, or one that cannot do what was asked.
        case unavailable
        /// Options that do not go together, or a name of the wrong form.
        case misuse
        /// This user may not open the device.
        case permissionDenied
        /// A recording that cannot be read.
        case unreadable
        /// A recording that can be read but is not one.
        case malformed
        /// A recording that cannot be written.
        case unwritable
    }

    public let kind: Kind
    public let description: String

    public init(description: String, kind: Kind = .unavailable) {
        self.description = description
        self.kind = kind
    }
}
