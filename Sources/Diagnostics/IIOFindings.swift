// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import MotionCore
import MotionDevices
import LibC

/// The IIO part of `doctor`: devices, which are IMUs, access to what capture
/// writes, and the trigger each IMU would run on.
struct IIOFindings {
    /// The context could not be made (the error says why).
    var failure: String?
    /// Every device that is not a trigger, IMU or not.
    var deviceCount = 0
    var imus: [IIOIMU] = []
    /// Per IMU device: each file capture needs, checked.
    var capture: [(device: IIODevice, checks: [DeviceAccess])] = []
    /// Per IMU device: the trigger it would run on, nil when none can be had.
    var triggers: [(device: IIODevice, choice: TriggerChoice?)] = []
    var hrtimer: HrtimerTrigger.Availability

    /// The IIO half of what `selection` found.
    init(_ selection: SensorSelection) {
        failure = selection.iioFailure
        deviceCount = selection.iioDeviceCount
        imus = selection.imus.map(\.imu)
        let devices = selection.imus.flatMap(\.devices)
        capture = devices.map { ($0.device, $0.access) }
        triggers = devices.map { ($0.device, $0.trigger) }
        hrtimer = selection.hrtimer
    }

    /// The `IIO` and `IIO access` lines.
    func lines(anotherSensorUsable: Bool) -> [DoctorLine] {
        if let failure { return [.fail("IIO", "cannot read the IIO devices: \(failure)")] }
        let missing: DoctorLine.Status = anotherSensorUsable ? .ok : .warn
        if imus.isEmpty {
            let what = deviceCount == 0
                ? "no IIO devices: no I²C IMU is bound (wiring and config.txt: hardware.md)"
                : "\(deviceCount) IIO device\(deviceCount == 1 ? "" : "s"), none with accel or anglvel channels (not an IMU)"
            return [DoctorLine(status: missing, check: "IIO", text: what)]
        }
        var out = imus.map { imu in
            let types = Set(imu.devices.flatMap { $0.motionChannels.map(\.type) })
            let offers = [types.contains(.accel) ? "accel" : nil, types.contains(.anglvel) ? "anglvel" : nil].compactMap { $0 }
            return DoctorLine.ok("IIO", "\(imu.name) on \(imu.devices.map(\.id).joined(separator: " + ")) (\(offers.joined(separator: ", ")))")
        }
        for (device, checks) in capture where !checks.isEmpty {
            let refused = checks.filter { !$0.allowed }
            if refused.isEmpty {
                out.append(.ok("IIO access", "\(Self.label(device)): \(device.devicePath) and its \(checks.count - 1) attributes are yours to read and write"))
            } else {
                out += refused.map { .fail("IIO access", "\(Self.label(device)): \($0.description)") }
            }
        }
        return out
    }

    /// The `capture` lines (an IMU without a buffer, named once), the
    /// `trigger` lines (one per device with a buffer), then whether hrtimer
    /// triggers can be had.
    func triggerLines() -> [DoctorLine] {
        guard !imus.isEmpty else { return [] }
        var out: [DoctorLine] = imus.compactMap { $0.noAccelerometerAdvice.map { .warn("tilt", $0) } }
        out += imus.compactMap { imu in
            imu.devices.first?.context.isLocal ?? false
                ? imu.pollingNote.map { .warn("capture", $0) } : imu.noBufferAdvice.map { .fail("capture", $0) }
        }
        out += triggers.filter { $0.device.hasBuffer }.map { device, choice in
            let who = Self.label(device)
            switch choice {
            case .none?:
                return .ok("trigger", "\(who) needs none: it fills a hardware FIFO")
            case .dataReady(let name)?:
                return .ok("trigger", "\(who) uses its data-ready trigger \(name)")
            case .existingHrtimer(let name)?:
                let rate = device.context.triggers.first { $0.name == name }
                    .flatMap { try? $0.readAttribute("sampling_frequency") }.flatMap { Double($0.trimmingCharacters(in: " \t\n")) }
                return .ok("trigger", "\(who) has no data-ready trigger; uses hrtimer trigger \(name)"
                           + (rate.map { " at \($0 == $0.rounded() ? String(Int($0)) : String($0)) Hz (root's to change: hardware.md)" } ?? ""))
            case .createHrtimer(let name)?:
                return .ok("trigger", "\(who) has no data-ready trigger; the game makes hrtimer trigger \(name) in configfs")
            case nil:
                return .fail("trigger", "\(who) has no data-ready trigger (a driver that has one makes it only when the chip's interrupt pin is wired and declared: hardware.md) and no hrtimer trigger can be had: \(hrtimer.advice); or make one at boot: sudo udev/install.sh --hrtimer")
            }
        }
        let directory = HrtimerTrigger.hrtimerDirectory()
        // Missing hrtimer support only matters to a sensor left without a trigger.
        let needed = triggers.contains { $0.choice == nil && $0.device.hasBuffer }
        let status: DoctorLine.Status = needed ? .warn : .ok
        let note = needed ? "" : " (none of these sensors needs one)"
        switch hrtimer {
        case .available(writable: true):
            out.append(.ok("trigger", "hrtimer triggers can be made by you (\(directory))"))
        case .available(writable: false):
            out.append(DoctorLine(status: status, check: "trigger", text: "\(directory): \(hrtimer.advice)\(note)"))
        default:
            out.append(DoctorLine(status: status, check: "trigger", text: "no hrtimer triggers: \(hrtimer.advice)\(note)"))
        }
        return out
    }

    /// "iio:device0 (mpu6050)".
    static func label(_ device: IIODevice) -> String { "\(device.id) (\(device.name ?? "no name"))" }
}
