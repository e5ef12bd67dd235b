import Evdev
import IIO
import MotionDevices

/// What `tiltmaze devices` prints: every motion sensor found, what it
/// offers, whether this user may use it, and which one `--source auto` takes.
public enum DeviceListing {
    /// The lines for `selection`; the last names what `--source auto` uses.
    public static func lines(for selection: SensorSelection) -> [String] {
        var lines: [String] = []
        for candidate in selection.imus {
            lines.append("\(candidate.imu.name)  (IIO, use --source iio:\(candidate.imu.name))")
            for readiness in candidate.devices { lines += describe(readiness).map { "  " + $0 } }
        }
        if let first = selection.imus.first?.imu {
            let triggers = first.devices[0].context.triggers.compactMap(\.name)
            lines.append("IIO triggers: \(triggers.isEmpty ? "none" : triggers.joined(separator: ", "))")
            let hrtimer = HrtimerTrigger.hrtimerDirectory()
            switch selection.hrtimer {
            case .available:
                lines.append("hrtimer triggers: available (\(hrtimer))")
            case let missing:
                lines.append("hrtimer triggers: not available (\(missing.advice); see hardware.md)")
            }
        }
        for candidate in selection.evdev {
            lines.append("\(candidate.sensor.motion.name)  (evdev, use --source evdev:\(candidate.sensor.motion.path))")
            lines += describe(candidate).map { "  " + $0 }
        }
        if lines.isEmpty {
            lines.append("No motion sensors found: no IIO device with accel or anglvel channels, no input node with INPUT_PROP_ACCELEROMETER.")
            lines.append("See hardware.md for wiring and the device-tree overlay; `tiltmaze play` uses the simulated board meanwhile.")
        }
        lines.append("--source auto uses: \(selection.autoDescription)")
        return lines
    }

    /// The device's lines: id, channels, scales, rates, trigger, mount matrix, access.
    static func describe(_ readiness: SensorSelection.DeviceReadiness) -> [String] {
        let device = readiness.device
        var out = ["\(device.id) \(device.name ?? "")  \(device.devicePath)"]
        let scan = device.channels.filter { $0.isScanElement && !$0.isOutput }
        out.append("  channels: " + scan.map(\.id).joined(separator: " "))
        var scales: [String] = []
        for (type, unit) in [("accel", "m/s²"), ("anglvel", "rad/s")] {
            if let channel = scan.first(where: { $0.id.hasPrefix(type + "_") }),
               let scale = try? channel.readAttribute("scale", as: Double.self) {
                scales.append("\(type) \(scale) \(unit) per count")
            }
        }
        if !scales.isEmpty { out.append("  scales: " + scales.joined(separator: ", ")) }
        let names = Set(device.attributeNames)
        if let rates = ["sampling_frequency_available", "in_accel_sampling_frequency_available"]
            .first(where: names.contains).flatMap({ try? device.readAttribute($0) }) {
            let now = (try? device.readAttribute("sampling_frequency")).map { " (now \(trim($0)))" } ?? ""
            out.append("  rates: \(trim(rates)) Hz\(now)")
        }
        if let current = try? device.readAttribute("trigger/current_trigger") {
            out.append("  trigger: " + (trim(current).isEmpty ? "none set" : trim(current)))
        } else {
            out.append("  trigger: none needed (hardware FIFO)")
        }
        let refused = readiness.access.filter { !$0.allowed }
        out.append("  access: " + (refused.isEmpty ? "ok (you may open and configure it)" : "NO"))
        out += refused.map { "    \($0.description)" }
        return out
    }

    /// The motion node's lines: axes and their units, the axis convention, the gamepad, access.
    static func describe(_ candidate: SensorSelection.EvdevCandidate) -> [String] {
        let sensor = candidate.sensor, access = candidate.motion
        var out: [String] = []
        if access.allowed, let device = try? EvdevDevice(path: sensor.motion.path) {
            func resolution(_ code: UInt16, _ unit: String) -> String? {
                guard device.hasEvent(type: .abs, code: code), let info = device.absInfo(code) else { return nil }
                return info.resolution > 0 ? "\(info.resolution) per \(unit)" : "resolution not given"
            }
            if let accel = resolution(EvdevCode.absX, "g") { out.append("  accelerometer: ABS_X/Y/Z, \(accel)") }
            if let gyro = resolution(EvdevCode.absRX, "°/s") { out.append("  gyroscope: ABS_RX/RY/RZ, \(gyro)") }
            out.append("  timestamps: " + (device.hasEvent(type: .msc, code: EvdevCode.mscTimestamp)
                ? "MSC_TIMESTAMP (the controller's clock)" : "kernel event time"))
        }
        let profile = EvdevControllerProfile(name: sensor.motion.name)
        if profile.kind != .other {
            out.append("  axes: \(profile.kind.rawValue) convention, mount matrix \(profile.mount)")
        }
        if let gamepad = sensor.gamepad { out.append("  gamepad: \(gamepad) (buttons pause, restart, quit)") }
        out.append("  access: \(access.description)")
        return out
    }

    private static func trim(_ s: String) -> String { String(s.split(whereSeparator: \.isNewline).first ?? "") }
}
