import IIO

/// Where an IIO IMU's tilt comes from: its accelerometer, which TiltMaze
/// fuses with the gyroscope itself, or, on a chip that fuses on its own (a
/// BNO055 in fusion mode), the chip's estimate of gravity.
public enum IIOAccelerationChannels: String, Sendable, CaseIterable {
    /// `in_accel_x/y/z`: the specific force, pushes and shakes included.
    case accelerometer = "accel"
    /// `in_gravity_x/y/z`: the chip's own fusion of its three sensors into
    /// the gravity it feels, in m/s² with the accelerometer's sign (+9.81
    /// on z lying flat) and none of the pushes, so no shake is seen in it.
    case chipGravity = "gravity"

    /// The channel ids of the three axes.
    public var channelIDs: [String] { ["x", "y", "z"].map { "\(rawValue)_\($0)" } }
}

extension IIOIMU {
    /// Whether one of its devices fuses on its own: it has gravity channels
    /// (the bno055 driver makes them; they read only while its
    /// `fusion_enable` is 1).
    public var offersChipFusion: Bool { devices.contains { $0.channel(id: "gravity_x").map { !$0.isOutput } ?? false } }

    /// Whether the chip's fusion is running: `fusion_enable` reads 1, or the
    /// driver has no such switch. Nil without chip fusion.
    public var chipFusionIsOn: Bool? {
        guard let device = devices.first(where: { $0.channel(id: "gravity_x") != nil }) else { return nil }
        guard device.attributeNames.contains("fusion_enable") else { return true }
        return (try? device.readAttribute("fusion_enable", as: Int.self)).map { $0 != 0 } ?? false
    }

    /// Why `--chip-fusion` cannot be had from this IMU, or nil when it can.
    public var chipFusionRefusal: String? {
        guard let on = chipFusionIsOn else {
            return "\(placeDescription) has no fusion of its own (a BNO055 has): without --chip-fusion TiltMaze fuses its readings itself"
        }
        guard on else {
            let device = devices.first { $0.channel(id: "gravity_x") != nil }!
            return "\(placeDescription): the chip's fusion is off (fusion_enable is 0), so its gravity cannot be read; turn it on (echo 1 | sudo tee \(device.sysfsPath)/fusion_enable) or play without --chip-fusion"
        }
        return nil
    }
}
