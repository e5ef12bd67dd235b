import MotionCore
import IIO

/// One IMU on the IIO bus: a chip's one device, or its `_accel` and `_gyro` pair.
public struct IIOIMU: Sendable, CustomStringConvertible {
    public let name: String
    /// Accelerometer first when the chip is split.
    public let devices: [IIODevice]

    public var description: String { "\(name) (\(devices.map(\.id).joined(separator: " + ")))" }

    /// The IMUs of `context`, in device order.
    public static func find(in context: IIOContext) -> [IIOIMU] {
        let sensors = context.devices.filter { !$0.isTrigger }
        let members = sensors.map { device in
            let types = Set(device.channels.filter { $0.isScanElement && !$0.isOutput }.map(\.type))
            return IMUGrouping.Member(id: device.id, name: device.name ?? device.id,
                                      hasAccel: types.contains(.accel), hasGyro: types.contains(.anglvel))
        }
        return IMUGrouping.group(members).map { imu in
            IIOIMU(name: imu.name, devices: imu.members.compactMap { m in sensors.first { $0.id == m.id } })
        }
    }
}
