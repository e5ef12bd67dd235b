// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
/// Groups IIO devices into IMUs: one chip may appear as one device (inv_mpu6050:
/// accel and gyro together) or as two (st_lsm6dsx: `<chip>_accel` and
/// `<chip>_gyro`; a HID sensor hub, as in laptops and tablets: `accel_3d` and
/// `gyro_3d`), and the game wants one sensor per chip.
public enum IMUGrouping {
    /// What grouping needs to know of a device.
    public struct Member: Equatable, Sendable {
        public var id: String
        public var name: String
        public var hasAccel: Bool
        public var hasGyro: Bool
        public init(id: String, name: String, hasAccel: Bool, hasGyro: Bool) {
            self.id = id; self.name = name; self.hasAccel = hasAccel; self.hasGyro = hasGyro
        }
    }

    /// One IMU: its chip name and its one or two devices (accelerometer first).
    public struct IMU: Equatable, Sendable {
        public var name: String
        public var members: [Member]
    }

    /// Devices with accel or gyro channels, split-chip pairs joined, in device order.
    public static func group(_ devices: [Member]) -> [IMU] {
        let motion = devices.filter { $0.hasAccel || $0.hasGyro }
        var imus: [IMU] = []
        var used = Set<String>()
        for device in motion where !used.contains(device.id) {
            used.insert(device.id)
            if let half = splitHalf(device.name) {
                if let partner = motion.first(where: { !used.contains($0.id) && $0.name == half.partner }) {
                    used.insert(partner.id)
                    let pair = device.hasAccel ? [device, partner] : [partner, device]
                    imus.append(IMU(name: half.chip, members: pair))
                    continue
                }
            }
            imus.append(IMU(name: device.name, members: [device]))
        }
        return imus
    }

    /// The IMU a half-chip device belongs to and its other half's name:
    /// "lsm6ds3_accel" → ("lsm6ds3", "lsm6ds3_gyro"); "accel_3d" (the HID
    /// sensor hub's) → ("hid-sensor-hub", "gyro_3d"); nil for a whole chip.
    static func splitHalf(_ name: String) -> (chip: String, partner: String)? {
        switch name {
        case "accel_3d": return ("hid-sensor-hub", "gyro_3d")
        case "gyro_3d": return ("hid-sensor-hub", "accel_3d")
        default: break
        }
        for (suffix, other) in [("_accel", "_gyro"), ("_gyro", "_accel")] where name.hasSuffix(suffix) && name.count > suffix.count {
            let chip = String(name.dropLast(suffix.count))
            return (chip, chip + other)
        }
        return nil
    }
}
