import MotionCore
import IIO
import SystemCalls
import SystemPackage

/// One IMU on the IIO bus: a chip's one device, or its `_accel` and `_gyro` pair.
public struct IIOIMU: Sendable, CustomStringConvertible {
    public let name: String
    /// Accelerometer first when the chip is split.
    public let devices: [IIODevice]

    public var description: String { "\(name) (\(devices.map(\.id).joined(separator: " + ")))" }

    /// "mpu6050 on iio:device0" (and " at ip:HOST" when read through iiod), as the player is told.
    public var placeDescription: String {
        let remote = devices.first.flatMap { $0.context.isLocal ? nil : " at \($0.context.uri)" } ?? ""
        return "\(name) on \(devices.map(\.id).joined(separator: " + "))" + remote
    }

    /// The chip's name and where it sits: its parent in /sys/devices (the
    /// bus and address, "platform/soc/fe804000.i2c/i2c-1/1-0068"), which
    /// stays the same across boots, unlike `iio:deviceN`; on a remote
    /// context, the context's URI instead.
    public var identity: String {
        guard let device = devices.first else { return "iio \(name)" }
        guard device.context.isLocal else { return "iio \(name) at \(device.context.uri)" }
        switch FilePath(device.sysfsPath).resolved() {
        case .success(let real):
            var parent = real.removingLastComponent().string
            if parent.hasPrefix("/sys/devices/") { parent.removeFirst("/sys/devices/".count) }
            return "iio \(name) at \(parent)"
        case .failure:
            return "iio \(name) at \(device.id)"
        }
    }

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
