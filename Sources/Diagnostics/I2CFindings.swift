// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C
import MotionDevices

/// The i2c-dev part of `devices` and `doctor`: each bus looked at for an
/// LSM9DS1 (the Sense HAT's IMU), what answered, and whether this user may
/// open the bus.
struct I2CFindings {
    let probes: [I2CProbe]
    /// The buses `--source auto` does not read, and why.
    let skipped: [I2CProbe.SkippedBus]
    /// The board's model when this is a Raspberry Pi.
    let piModel: String?
    /// This user's calibration files (their mount matrices and accelerometer calibrations).
    let calibrations: CalibrationStore?

    init(_ selection: SensorSelection, piModel: String? = RaspberryPi.model(), calibrations: CalibrationStore? = nil) {
        self.calibrations = calibrations
        probes = selection.i2c
        skipped = selection.i2cSkipped
        self.piModel = piModel
    }

    /// The sensor lines of `tiltmaze devices`: each LSM9DS1, then the buses
    /// worth a word (refused, answered by something else, held by a driver).
    var listing: [String] {
        var out: [String] = []
        for imu in probes.flatMap(\.imus) {
            out.append("\(imu.name)  (\(imu.board), i2c-dev, use --source i2c:\(imu.adapter.node))")
            out.append("  bus: \(imu.adapter), address\(imu.magnetometerAddress == nil ? "" : "es") \(imu.addresses)")
            out.append("  channels: accel_x accel_y accel_z anglvel_x anglvel_y anglvel_z" + (imu.magnetometerAddress == nil ? "" : " magn_x magn_y magn_z")
                       + " (polled by its data-ready status)")
            out.append("  rates: " + LSM9DS1.outputRates.map { IIOSamplingRate.number($0.hertz) }.joined(separator: " ") + " Hz; ranges ±8 g, ±500 °/s")
            if let address = imu.magnetometerAddress {
                out.append("  magnetometer: \(I2CDevice.hex(address)), up to \(IIOSamplingRate.number(LSM9DS1.magnetometerRates.last!.hertz)) Hz, ±4 gauss (0.014 µT per count)")
            }
            let user = calibrations?.chipCorrection(for: imu.identity)
            let mount = imu.chosenMount(user: user)
            out.append("  mount matrix: " + (mount.origin == .identity ? "\(mount.matrix) (the chip's own axes)" : "\(mount)"))
            if let line = DeviceListing.accelerometerLine(user) { out.append("  " + line) }
            out.append("  access: ok (you may open \(imu.adapter.node))")
        }
        for probe in probes where probe.imus.isEmpty && worthSaying(probe) {
            out.append("I²C \(probe.adapter): \(probe.summary)")
        }
        // On a Pi every bus the board has is worth a word: which one auto reads is the news.
        // A PC's many chipset and graphics buses are not.
        if piModel != nil {
            for bus in skipped { out.append("I²C \(bus.adapter): not looked at: \(bus.reason)") }
        }
        if probes.isEmpty, piModel != nil {
            out.append("I²C: no bus node (/dev/i2c-*): a Sense HAT is read through one; \(RaspberryPi.enableI2C)")
        }
        return out
    }

    /// The `I2C` lines of `doctor`.
    func lines(anotherSensorUsable: Bool) -> [DoctorLine] {
        let missing: DoctorLine.Status = anotherSensorUsable ? .ok : .warn
        if probes.isEmpty {
            guard piModel != nil else { return [] }
            return [DoctorLine(status: missing, check: "I2C", text: "no bus node (/dev/i2c-*), so no Sense HAT can be read: \(RaspberryPi.enableI2C)")]
        }
        var out: [DoctorLine] = []
        for probe in probes {
            if let imu = probe.imus.first {
                out.append(.ok("I2C", "\(imu.placeDescription), addresses \(imu.addresses): readable"))
            } else if !probe.access.allowed {
                out.append(DoctorLine(status: missing == .ok ? .warn : .fail, check: "I2C",
                                      text: "\(probe.adapter.node): \(probe.access.explanation) (a Sense HAT is read through it)"))
            } else if worthSaying(probe) || piModel != nil {
                out.append(DoctorLine(status: missing, check: "I2C", text: "\(probe.adapter): \(probe.summary)"))
            }
        }
        return out
    }

    /// A bus where nothing answered and nothing is held says nothing in
    /// `devices` (a PC has several).
    private func worthSaying(_ probe: I2CProbe) -> Bool {
        !probe.access.allowed || probe.failure != nil || !probe.answered.isEmpty || !probe.claimed.isEmpty
    }
}
