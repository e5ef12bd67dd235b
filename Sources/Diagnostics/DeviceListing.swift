// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Evdev
import IIO
import MotionCore
import MotionDevices

/// What `tiltmaze devices` prints: every motion sensor found, what it
/// offers, whether this user may use it, and which one `--source auto` takes.
public enum DeviceListing {
    /// The lines for `selection`; the last names what `--source auto` uses.
    /// `udevDirectory`: where udev keeps its device records (mount matrices);
    /// `calibrations`: this user's calibration files (their own mount
    /// matrices and accelerometer calibrations, which the sources apply).
    public static func lines(for selection: SensorSelection, udevDirectory: String = UdevDatabase.defaultDirectory,
                             calibrations: CalibrationStore? = nil) -> [String] {
        var lines: [String] = []
        for candidate in selection.imus {
            lines.append("\(candidate.imu.name)  (IIO, use --source iio:\(candidate.imu.name))")
            if candidate.refusal == .noAccelerometer {
                lines.append("  tilt: impossible, no accelerometer (a gyroscope alone cannot tell which way is down); --source auto passes it over")
            }
            let user = calibrations?.chipCorrection(for: candidate.imu.identity)
            for readiness in candidate.devices { lines += describe(readiness, udevDirectory: udevDirectory, user: user).map { "  " + $0 } }
            if let line = accelerometerLine(user) { lines.append("  " + line) }
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
            let user = calibrations?.chipCorrection(for: EvdevMotionSource.calibrationIdentity(of: candidate.sensor.motion))
            lines += describe(candidate, udevDirectory: udevDirectory, user: user).map { "  " + $0 }
        }
        let i2c = I2CFindings(selection, calibrations: calibrations).listing
        if lines.isEmpty && !selection.i2c.contains(where: { !$0.imus.isEmpty }) {
            lines += i2c
            lines.append("No motion sensors found: no IIO device with accel or anglvel channels, no input node with INPUT_PROP_ACCELEROMETER, no LSM9DS1 on an I²C bus.")
            lines.append("See hardware.md for wiring and the device-tree overlay; `tiltmaze play` uses the simulated board meanwhile.")
        } else {
            lines += i2c
        }
        lines.append("--source auto uses: \(selection.autoDescription)")
        return lines
    }

    /// For a device that fuses on its own (a BNO055): what it offers, whether
    /// it is on, and how to use it.
    static func chipFusionLine(_ device: IIODevice) -> String? {
        guard let fusion = device.chipFusion else { return nil }
        return "  fusion: the chip's own (\(fusion.outputs.joined(separator: ", "))), " + (fusion.isOn
            ? "on: --chip-fusion tilts by its gravity; without it TiltMaze fuses the readings itself"
            : "off (fusion_enable 0): TiltMaze fuses the readings itself")
    }

    /// The device's lines: id, channels, scales, rates, mount matrix, trigger, access.
    /// The accelerometer calibration a source applies for this user, if any.
    static func accelerometerLine(_ user: ChipCorrection?) -> String? {
        guard let user, !user.accelerometer.isNone else { return nil }
        let a = user.accelerometer
        return "accelerometer: calibrated (bias \(MotionSampleText.fixed(a.bias, decimals: 3)) m/s², scale "
            + "\(MotionSampleText.fixed(a.scale, decimals: 4))\(a.hasCrossAxisTerms ? ", cross-axis terms" : ""); \(user.file))"
    }

    static func describe(_ readiness: SensorSelection.DeviceReadiness, udevDirectory: String, user: ChipCorrection? = nil) -> [String] {
        let device = readiness.device
        var out = ["\(device.id) \(device.name ?? "")  \(readiness.hasBuffer ? device.devicePath : "(no buffer)")"]
        // Scan elements in scan order; without a buffer libiio lists channels
        // in the directory's order, so they are sorted by name.
        let channels = readiness.hasBuffer ? device.channels.filter { $0.isScanElement && !$0.isOutput }
            : device.motionChannels.sorted { $0.id < $1.id }
        out.append("  channels: " + channels.map(\.id).joined(separator: " ") + (readiness.hasBuffer ? "" : " (single raw reads only)"))
        var scales: [String] = []
        for (type, unit) in [("accel", "m/s²"), ("anglvel", "rad/s")] {
            if let channel = channels.first(where: { $0.id.hasPrefix(type + "_") }),
               let scale = try? channel.readAttribute("scale", as: Double.self) {
                scales.append("\(type) \(scale) \(unit) per count")
            }
        }
        if !scales.isEmpty { out.append("  scales: " + scales.joined(separator: ", ")) }
        if let magn = device.channel(id: "magn_x"), !magn.isOutput {
            let scale = (try? magn.readAttribute("scale", as: Double.self)).map {
                ", \(IIOMagnetometer.microteslaPerCount(deviceName: device.name, scale: $0)) µT per count"
            } ?? ""
            out.append("  magnetometer: magn_x magn_y magn_z\(scale), read with the others (mount matrix: \(IIOMagnetometer.mount(of: device, accelMount: MountMatrixLookup.iio(device, udevDirectory: udevDirectory, user: user).matrix)))")
        }
        if let fusion = chipFusionLine(device) { out.append(fusion) }
        out += IIOSamplingRate.find(device).map { "  rates: " + $0.description }
        // The one the game turns samples by (udev's first), and where it comes from.
        out.append("  mount matrix: \(MountMatrixLookup.iio(device, udevDirectory: udevDirectory, user: user))")
        guard readiness.hasBuffer else {
            guard device.context.isLocal else {
                out.append("  capture: impossible over iiod, no buffer (no interrupt line declared; `tiltmaze doctor` says how)")
                return out
            }
            out.append("  capture: polled, no buffer (no interrupt line declared; `tiltmaze doctor` says how): each axis's raw value read in turn")
            let refused = readiness.access.filter { !$0.allowed }
            out.append("  access: " + (refused.isEmpty ? "ok (you may read its raw values)" : "NO"))
            out += refused.map { "    \($0.description)" }
            return out
        }
        switch readiness.trigger {
        case .none?: out.append("  trigger: none needed (hardware FIFO)")
        case .dataReady(let name)?: out.append("  trigger: \(name) (its data-ready trigger)")
        case .existingHrtimer(let name)?: out.append("  trigger: hrtimer \(name)")
        case .createHrtimer(let name)?: out.append("  trigger: hrtimer \(name), made when capture starts")
        case nil: out.append("  trigger: none to be had (no data-ready trigger, no hrtimer; `tiltmaze doctor` says why)")
        }
        let refused = readiness.access.filter { !$0.allowed }
        out.append("  access: " + (refused.isEmpty ? "ok (you may open and configure it)" : "NO"))
        out += refused.map { "    \($0.description)" }
        return out
    }

    /// The motion node's lines: axes and their units, the axis convention, the gamepad, access.
    static func describe(_ candidate: SensorSelection.EvdevCandidate, udevDirectory: String, user: ChipCorrection? = nil) -> [String] {
        let sensor = candidate.sensor, access = candidate.motion
        let profile = EvdevControllerProfile(name: sensor.motion.name)
        var out: [String] = []
        if access.allowed, let device = try? EvdevDevice(path: sensor.motion.path) {
            func resolution(_ code: UInt16, _ unit: String) -> String? {
                guard device.hasEvent(type: .abs, code: code), let info = device.absInfo(code) else { return nil }
                return info.resolution > 0 ? "\(info.resolution) per \(unit)" : "resolution not given"
            }
            if let accel = resolution(EvdevCode.absX, "g") { out.append("  accelerometer: ABS_X/Y/Z, \(accel)") }
            if let gyro = resolution(EvdevCode.absRX, "°/s") { out.append("  gyroscope: ABS_RX/RY/RZ, \(gyro)") }
            out.append("  timestamps: " + (device.hasEvent(type: .msc, code: EvdevCode.mscTimestamp)
                ? "MSC_TIMESTAMP (\(profile.timestampSource))" : "kernel event time"))
        }
        // The one the game turns samples by: udev's first, else the driver's convention.
        let mount = MountMatrixLookup.evdev(sensor.motion.path, profile: profile, udevDirectory: udevDirectory, user: user)
        switch mount.origin {
        case .controller(let kind): out.append("  axes: \(kind) convention, mount matrix \(mount.matrix)")
        case .udev, .user: out.append("  axes: mount matrix \(mount)")
        case .driver, .identity, .board: break
        }
        if let line = accelerometerLine(user) { out.append("  " + line) }
        if let gamepad = sensor.gamepad { out.append("  gamepad: \(gamepad) (buttons pause, restart, quit)") }
        out.append("  access: \(access.description)")
        return out
    }
}
