// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import IIO
import LibC
import SystemCalls
/// Which trigger an IIO motion device should run on: policy, kept apart from
/// the libiio calls so it can be tested on its own.
///
/// Order of preference (hardware.md, "The hrtimer trigger"):
/// 1. the device's own data-ready trigger, named `<device name>-dev<N>` by the
///    kernel (inv_mpu6050, bmi160): a sample per conversion, no timer jitter;
/// 2. an hrtimer trigger that already exists (set up at boot by our udev rule
///    or systemd unit), else one we create through configfs;
/// 3. none, for drivers that fill a hardware FIFO themselves (st_lsm6dsx):
///    they have no `trigger/current_trigger` attribute at all.
public enum TriggerChoice: Equatable, Sendable {
    case dataReady(String)
    case existingHrtimer(String)
    case createHrtimer(String)
    case none

    /// The name our hrtimer triggers get, so a later run reuses it.
    public static let hrtimerName = "tiltmaze"

    /// - Parameters:
    ///   - deviceName: the device's `name`, e.g. "mpu6050".
    ///   - deviceIndex: N of `iio:deviceN`.
    ///   - acceptsTrigger: whether the device has `trigger/current_trigger`.
    ///   - triggerNames: the names of the triggers that exist now.
    ///   - canCreateHrtimer: whether configfs offers `iio/triggers/hrtimer`.
    public static func choose(deviceName: String, deviceIndex: Int, acceptsTrigger: Bool,
                              triggerNames: [String], canCreateHrtimer: Bool) -> TriggerChoice? {
        guard acceptsTrigger else { return TriggerChoice.none }
        let own = "\(deviceName)-dev\(deviceIndex)"
        if triggerNames.contains(own) { return .dataReady(own) }
        if triggerNames.contains(hrtimerName) { return .existingHrtimer(hrtimerName) }
        if canCreateHrtimer { return .createHrtimer(hrtimerName) }
        return nil   // needs a trigger and none can be had: the caller explains
    }
}

extension TriggerChoice {
    /// The choice for `device` as things stand: its trigger attribute, the
    /// triggers that exist, and whether this user may make an hrtimer one.
    /// What capture set-up does, and what `tiltmaze doctor` reports.
    public static func choose(for device: IIODevice,
                              configfsRoot: String = HrtimerTrigger.defaultConfigfsRoot) -> TriggerChoice? {
        // libiio's trigger call, not the attribute: iiod answers it too. ENOENT:
        // no trigger directory at all (a FIFO driver); ENXIO: one is named that
        // is not in the context, which still says the device takes one.
        let acceptsTrigger: Bool
        do {
            _ = try device.currentTrigger()
            acceptsTrigger = true
        } catch {
            acceptsTrigger = error.errno != ENOENT
        }
        let index = Int(device.id.drop { !$0.isNumber }) ?? 0
        // configfs is this machine's: a device on another one (iiod) gets no trigger made from here.
        let canCreate = device.context.isLocal && HrtimerTrigger.existing(named: hrtimerName, configfsRoot: configfsRoot) == nil
            && HrtimerTrigger.availability(configfsRoot: configfsRoot) == .available(writable: true)
        return choose(deviceName: device.name ?? device.id, deviceIndex: index, acceptsTrigger: acceptsTrigger,
                      triggerNames: device.context.triggers.compactMap(\.name), canCreateHrtimer: canCreate)
    }
}
