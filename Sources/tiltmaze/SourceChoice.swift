import ArgumentParser
import IIO
import Motion

/// What `--source` asks for: `auto`, `sim`, `iio` or `iio:NAME`.
enum SourceChoice: ExpressibleByArgument, Equatable {
    /// The best sensor found; the simulated board when there is none.
    case auto
    /// The simulated board, tilted from the keyboard.
    case sim
    /// An IIO IMU: the first found, or the one whose name (or device id) is given.
    case iio(String?)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "sim": self = .sim
        case "iio": self = .iio(nil)
        default:
            guard argument.hasPrefix("iio:"), argument.count > 4 else { return nil }
            self = .iio(String(argument.dropFirst(4)))
        }
    }

    static var allValueStrings: [String] { ["auto", "sim", "iio", "iio:NAME"] }
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
        case .auto:
            if let imu = (try? Self.iioIMUs())?.first {
                let source = IIOMotionSource(imu: imu, rate: rate)
                return ChosenSource(source: source, description: source.displayName)
            }
            let sim = SimulatedSource(rate: rate)
            if let evdev = SensorDiscovery.evdevSensors().first {
                return ChosenSource(source: sim, description: "simulated board (found \(evdev.motion.name), not readable yet)")
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
