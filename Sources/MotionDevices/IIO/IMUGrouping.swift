import MotionCore
/// Groups IIO devices into IMUs: one chip may appear as one device (inv_mpu6050:
/// accel and gyro together) or as two (st_lsm6dsx: `<chip>_accel` and
/// `<chip>_gyro`), and the game wants one sensor per chip.
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
            if let chip = splitChip(device.name) {
                let partnerSuffix = device.hasAccel && !device.hasGyro ? "_gyro" : "_accel"
                if let partner = motion.first(where: { !used.contains($0.id) && $0.name == chip + partnerSuffix }) {
                    used.insert(partner.id)
                    let pair = device.hasAccel ? [device, partner] : [partner, device]
                    imus.append(IMU(name: chip, members: pair))
                    continue
                }
            }
            imus.append(IMU(name: device.name, members: [device]))
        }
        return imus
    }

    /// "lsm6ds3_accel" → "lsm6ds3"; nil for a name without such a suffix.
    static func splitChip(_ name: String) -> String? {
        for suffix in ["_accel", "_gyro"] where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }
}
