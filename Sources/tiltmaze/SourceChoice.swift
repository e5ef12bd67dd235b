import ArgumentParser
import IIO
import MotionCore
import MotionDevices

/// What `--source` asks for: `auto`, `sim`, `iio`, `iio:NAME`, `evdev` or `evdev:PATH`.
enum SourceChoice: ExpressibleByArgument, Equatable {
    /// The best sensor found; the simulated board when there is none.
    case auto
    /// The simulated board, tilted from the keyboard.
    case sim
    /// An IIO IMU: the first found, or the one whose name (or device id) is given.
    case iio(String?)
    /// An evdev motion node: the first found, or the one at the given path
    /// (`/dev/input/event7`, or just `event7`).
    case evdev(String?)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "sim": self = .sim
        case "iio": self = .iio(nil)
        case "evdev": self = .evdev(nil)
        default:
            if argument.hasPrefix("iio:"), argument.count > 4 {
                self = .iio(String(argument.dropFirst(4)))
            } else if argument.hasPrefix("evdev:"), argument.count > 6 {
                let path = String(argument.dropFirst(6))
                self = .evdev(path.hasPrefix("/") ? path : "/dev/input/" + path)
            } else {
                return nil
            }
        }
    }

    static var allValueStrings: [String] { ["auto", "sim", "iio", "iio:NAME", "evdev", "evdev:PATH"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// The source `play` or `monitor` uses and the line that tells the player which it is and why.
struct ChosenSource {
    let source: any MotionSource
    let description: String
}

/// No source could be made as asked.
struct SourceError: Error, CustomStringConvertible {
    let description: String
}

extension SourceChoice {
    func makeSource(rate: Double) throws -> ChosenSource {
        switch self {
        case .sim:
            return ChosenSource(source: SimulatedSource(rate: rate), description: "simulated board (--source sim)")
        case .iio(let wanted):
            let imus = try Self.iioIMUs()
            guard let imu = Self.pick(wanted, from: imus) else {
                let found = imus.isEmpty ? "none was found" : "found: " + imus.map(\.description).joined(separator: ", ")
                let what = wanted.map { "no IIO motion sensor named \($0)" } ?? "no IIO motion sensor"
                throw SourceError(description: "\(what) (\(found)); `tiltmaze devices` lists what there is")
            }
            let source = IIOMotionSource(imu: imu, rate: rate)
            return ChosenSource(source: source, description: source.displayName)
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
                throw SourceError(description: "no evdev motion sensor found (no input node sets INPUT_PROP_ACCELEROMETER); is the controller connected? `tiltmaze devices` lists what there is")
            }
            let source = EvdevMotionSource(node: node)
            return ChosenSource(source: source, description: source.displayName)
        case .auto:
            // A sensor bolted to the board (IIO) before a controller in the
            // player's hands; either before the simulated board. A sensor
            // this user may not open, or an IMU with no trigger to be had, is
            // skipped and the player told why: the tests `tiltmaze doctor`
            // applies, so its `ready` line names the sensor chosen here.
            var refused: [String] = []
            var triggerless: [String] = []
            for imu in (try? Self.iioIMUs()) ?? [] {
                let access = imu.devices.flatMap(IIOCaptureAccess.check)
                if let denied = access.first(where: { !$0.allowed }) {
                    refused.append(denied.path)
                } else if imu.devices.contains(where: { TriggerChoice.choose(for: $0) == nil }) {
                    triggerless.append(imu.name)
                } else {
                    let source = IIOMotionSource(imu: imu, rate: rate)
                    return ChosenSource(source: source, description: source.displayName)
                }
            }
            for sensor in SensorDiscovery.evdevSensors() {
                if DeviceAccess.check(sensor.motion.path, need: .read).allowed {
                    let source = EvdevMotionSource(node: sensor.motion)
                    return ChosenSource(source: source, description: source.displayName)
                }
                refused.append(sensor.motion.path)
            }
            let sim = SimulatedSource(rate: rate)
            var reasons = triggerless.map { "\($0) has no trigger" }
            if !refused.isEmpty { reasons.append("no permission for \(refused.joined(separator: ", "))") }
            if !reasons.isEmpty {
                return ChosenSource(source: sim, description: "simulated board (\(reasons.joined(separator: "; ")): `tiltmaze doctor` says why)")
            }
            return ChosenSource(source: sim, description: "simulated board (no IMU found)")
        }
    }

    /// The IMUs of the local IIO context; empty when the machine has no IIO bus.
    static func iioIMUs() throws -> [IIOIMU] {
        guard access("/sys/bus/iio/devices", F_OK) == 0 else { return [] }
        return IIOIMU.find(in: try IIOContext())
    }

    /// By chip name or by any of its device ids; the first when `wanted` is nil.
    static func pick(_ wanted: String?, from imus: [IIOIMU]) -> IIOIMU? {
        guard let wanted else { return imus.first }
        return imus.first { $0.name == wanted || $0.devices.contains { $0.id == wanted || $0.name == wanted } }
    }
}

#if canImport(Glibc)
import Glibc
#endif
