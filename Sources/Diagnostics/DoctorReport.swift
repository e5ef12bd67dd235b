// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionDevices

extension DoctorReport {
    /// Which mount matrix (and accelerometer calibration) the chosen sensor is read with, and from where.
    static func axes(_ choice: SensorSelection.Choice, calibrations: CalibrationStore?) -> DoctorLine {
        let user = calibrations?.chipCorrection(for: choice.calibrationIdentity)
        let mount = choice.mount(user: user)
        var text = "mount matrix \(mount)"
        if let accelerometer = DeviceListing.accelerometerLine(user) { text += "; " + accelerometer }
        if case .user = mount.origin {} else { text += "; `tiltmaze calibrate --orientation` sets your own" }
        return .ok("axes", text)
    }
}

/// What `doctor` found: its lines, and the sensor `play` would use, if any.

public struct DoctorReport {
    public let environment: [String: String]
    public private(set) var lines: [DoctorLine] = []
    /// How the first usable real sensor is named to the player, nil when none is.
    public private(set) var sensor: String?

    /// Whether the terminal takes 24-bit colour (as the terminal display decides it).
    public let truecolour: Bool

    public init(environment: [String: String], truecolour: Bool) {
        self.environment = environment
        self.truecolour = truecolour
    }

    /// Runs every check, in the order hardware.md lists them; with `live`,
    /// the chosen sensor is then read for a moment (`LiveCheck`).
    public mutating func examine(live: Bool = true) {
        lines.append(DoctorReport.libraries())
        let selection = SensorSelection.examine()
        let iio = IIOFindings(selection)
        let evdev = EvdevFindings(selection)
        let imuUsable = selection.imus.contains { $0.refusal == nil }
        let nodeUsable = selection.evdev.contains { $0.refusal == nil }
        let i2cUsable = selection.i2c.contains { !$0.imus.isEmpty }
        lines += iio.lines(anotherSensorUsable: nodeUsable || i2cUsable)
        lines.append(DoctorReport.group())
        lines += iio.triggerLines()
        lines += evdev.lines(anotherSensorUsable: imuUsable || i2cUsable)
        lines += I2CFindings(selection).lines(anotherSensorUsable: imuUsable || nodeUsable)
        lines += DoctorReport.framebuffers()
        lines += DoctorReport.kmsCards()
        lines.append(DoctorReport.terminal(environment, truecolour: truecolour))
        lines.append(DoctorReport.config(environment))
        sensor = selection.choice?.description
        if let sensor, let choice = selection.choice {
            lines.append(DoctorReport.axes(choice, calibrations: CalibrationStore.standard(environment: environment)))
            lines.append(.ok("ready", "tiltmaze play will use \(sensor)"))
            if live {
                let read = LiveCheck.line(selection)
                lines.append(read)
                // A sensor that fails as it is read cannot be played with.
                if read.status == .fail { self.sensor = nil }
            }
        } else {
            let fix = lines.contains { $0.status == .fail }
                ? "Fix the FAIL lines above (hardware.md, Troubleshooting)"
                : "None was found: wire an IMU or connect a controller (hardware.md)"
            lines.append(.fail("ready", "no motion sensor you can use; tiltmaze play would fall back to the simulated board. \(fix)"))
        }
    }
}
