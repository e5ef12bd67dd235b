// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import IIO

/// The magnetometer channels (`in_magn_x/y/z`) that some IMU devices carry
/// beside their accelerometer and gyroscope: the AK8963 inside an
/// MPU-9250/9255, which inv_mpu6050 reads through the chip's auxiliary I²C
/// master, and a BNO055's.
///
/// IIO's ABI gives magnetic fields in gauss after scaling; a sample carries
/// µT (100 per gauss), so the µT per raw count is the channel's scale × 100,
/// except where a driver's scale is known to say something else.
public enum IIOMagnetometer {
    /// µT per unit of `scale` for `device`'s magnetometer: 100 (µT per gauss)
    /// by the ABI. The mainline bno055 driver reports 1/160 where the chip
    /// gives 16 counts per µT (its data sheet, table 3-19): its comment
    /// takes a gauss for 0.1 µT, so the unit its scale is in is in effect
    /// 10 µT, and the factor is 10 (a count is 1/16 µT). A driver that fixed this would report 1/1600, and
    /// takes the ABI's factor again.
    public static func microteslaPerUnit(deviceName: String?, scale: Double) -> Double {
        if deviceName == "bno055", abs(scale - 1.0 / 160) < 1e-6 { return 10 }
        return microteslaPerGauss
    }

    /// µT per raw count of `device`'s magnetometer channel whose IIO scale is `scale`.
    public static func microteslaPerCount(deviceName: String?, scale: Double) -> Double {
        scale * microteslaPerUnit(deviceName: deviceName, scale: scale)
    }

    /// The mount matrix for the magnetometer's readings, given the one the
    /// accelerometer's take (`accelMount`: from udev, the driver or identity).
    ///
    /// inv_mpu6050 gives the magnetometer its own matrix, `in_magn_mount_matrix`:
    /// the board's mounting composed with how the AK8963's axes sit against
    /// the MPU's (x and y swapped, z reversed). So the readings take the
    /// accelerometer's matrix, undone of the driver's accelerometer matrix
    /// (identity when it has none), after the driver's magnetometer matrix.
    /// A device whose driver gives the magnetometer no matrix of its own
    /// (BNO055: one frame for all three) takes the accelerometer's.
    public static func mount(of device: IIODevice, accelMount: MountMatrix) -> MountMatrix {
        guard let channel = device.channel(id: "magn_x"), channel.attributeNames.contains("mount_matrix"),
              let read = try? channel.readAttribute("mount_matrix", as: IIOMountMatrix.self) else { return accelMount }
        let magnetometer = MountMatrix(read)
        guard !magnetometer.isSingular else { return accelMount }
        let driverAccel = IIOIMU.driverMountMatrix(of: device)?.matrix ?? .identity
        guard let undo = driverAccel.inverse else { return accelMount }
        return accelMount.composed(after: undo).composed(after: magnetometer)
    }

    /// How often the polled source reads the magnetometer, Hz: the driver's
    /// `in_magn_sampling_frequency` where it has one (a BNO055 in fusion
    /// mode: 20), else 50, the most inv_mpu6050 reads an AK8963 (above it
    /// the driver repeats its last reading).
    public static func pollRate(of device: IIODevice) -> Double {
        if let channel = device.channel(id: "magn_x"), channel.attributeNames.contains("sampling_frequency"),
           let hertz = try? channel.readAttribute("sampling_frequency", as: Double.self), hertz > 0 {
            return min(hertz, 50)
        }
        return 50
    }
}

/// Whether a magnetometer reading is new: inv_mpu6050 samples the AK8963
/// at most 50 times a second and, faster than that, puts the last reading
/// in each scan again. A sample carries a field only when it changed, so a
/// consumer does not count one reading several times.
public struct RepeatedReadingFilter: Sendable {
    @usableFromInline var last: Vector3?

    public init() {}

    /// Whether `reading` differs from the one before; remembers it.
    @inlinable
    public mutating func isNew(_ reading: Vector3) -> Bool {
        defer { last = reading }
        return reading != last
    }
}
