// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
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

    /// The IMUs of `context`, in device order: every device with accel or
    /// anglvel input channels, whether or not the driver gave it a buffer
    /// (without an interrupt line inv_mpu6050 and st_lsm6dsx give none: such
    /// a chip is still listed, and `hasBuffer` says why it cannot be captured).
    public static func find(in context: IIOContext) -> [IIOIMU] {
        let sensors = context.devices.filter { !$0.isTrigger }
        let members = sensors.map { device in
            let types = Set(device.motionChannels.map(\.type))
            return IMUGrouping.Member(id: device.id, name: device.name ?? device.id,
                                      hasAccel: types.contains(.accel), hasGyro: types.contains(.anglvel))
        }
        return IMUGrouping.group(members).map { imu in
            IIOIMU(name: imu.name, devices: imu.members.compactMap { m in sensors.first { $0.id == m.id } })
        }
    }
}

extension IIOIMU {
    /// The driver's own mount matrix (from the device tree's `mount-matrix`;
    /// identity when it has none) and the file it came from: `mount_matrix`
    /// (st_lsm6dsx), `in_mount_matrix` (bmi160) or `in_accel_mount_matrix`
    /// (inv_mpu6050, which libiio shows as the accel channels' `mount_matrix`).
    /// nil when the driver offers none.
    public static func driverMountMatrix(of device: IIODevice) -> (matrix: MountMatrix, attribute: String)? {
        let names = Set(device.attributeNames)
        // libiio lists `in_mount_matrix` as no attribute of the device (it
        // takes it for a channel "mount"): read that one by its file name.
        for attribute in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"]
        where names.contains(attribute) || attribute == "in_mount_matrix" {
            if let m = try? device.readAttribute(attribute, as: IIOMountMatrix.self) { return (MountMatrix(m), attribute) }
        }
        if let accel = device.channel(id: "accel_x"), accel.attributeNames.contains("mount_matrix"),
           let m = try? accel.readAttribute("mount_matrix", as: IIOMountMatrix.self) {
            return (MountMatrix(m), "in_accel_mount_matrix")
        }
        return nil
    }

    /// Whether any of its devices measures acceleration. Without it the IMU
    /// is a gyroscope alone (an ADXRS290, say): rotation rates cannot tell
    /// which way is down, so it never tilts the board.
    public var hasAccelerometer: Bool { devices.contains { $0.motionChannels.contains { $0.type == .accel } } }

    /// Why a gyroscope alone is never the tilt source: what `play`, `devices` and `doctor` say.
    public var noAccelerometerAdvice: String? {
        hasAccelerometer ? nil : "\(name) (\(devices.map(\.id).joined(separator: " + "))) has no accelerometer: a gyroscope alone cannot tell which way is down, so it cannot tilt the board; wire an accelerometer or IMU beside it (hardware.md)"
    }

    /// The source that reads it: buffered capture, or polling when a
    /// device of it has no buffer on this machine (over iiod, capture's
    /// refusal says why there is none).
    public static func source(for imu: IIOIMU, rate: Double, acceleration: IIOAccelerationChannels = .accelerometer,
                              calibrations: CalibrationStore? = nil) -> any MotionSource {
        let polled = imu.devices.contains { !$0.hasBuffer } && (imu.devices.first?.context.isLocal ?? false)
        return polled ? IIOPolledMotionSource(imu: imu, rate: rate, acceleration: acceleration, calibrations: calibrations)
            : IIOMotionSource(imu: imu, rate: rate, acceleration: acceleration, calibrations: calibrations)
    }

    /// What a polled IMU tells the player: why it has no buffer, the fix,
    /// and what polling costs.
    public var pollingNote: String? {
        let bufferless = devices.filter { !$0.hasBuffer }
        if bufferless.isEmpty { return nil }
        let subject = bufferless.map { "\($0.id) (\($0.name ?? "no name"))" }.joined(separator: " and ")
        return "\(subject) \(bufferless.count > 1 ? "have" : "has") no buffer, so it is polled: each axis read in turn at the rate asked, less even than capture; wire the chip's interrupt pin and declare it (dtoverlay=i2c-sensor,…,int_pin=N; see hardware.md) for buffered capture"
    }

    /// Why devices without a buffer cannot be captured, and the fix: what
    /// `play`, `devices` and `doctor` say. A split chip whose halves both
    /// lack one is named once, as the IMU.
    public var noBufferAdvice: String? {
        let bufferless = devices.filter { !$0.hasBuffer }
        if bufferless.isEmpty { return nil }
        let subject = bufferless.count == devices.count && devices.count > 1
            ? "\(name) (\(devices.map(\.id).joined(separator: " + ")))"
            : bufferless.map { "\($0.id) (\($0.name ?? "no name"))" }.joined(separator: " and ")
        return Self.noBufferAdvice(subject: subject, plural: bufferless.count > 1 && subject.contains(" and "))
    }

    private static func noBufferAdvice(subject: String, plural: Bool) -> String {
        "\(subject) \(plural ? "have" : "has") no buffer to capture into: its driver makes one only when the chip's interrupt pin is wired to a GPIO and declared (dtoverlay=i2c-sensor,…,int_pin=N, or interrupts in your overlay; see hardware.md), and a chip bound by hand through new_device has none; only single raw reads work without it"
    }
}

extension IIODevice {
    /// The accel and anglvel input channels, in or out of a buffer's scan.
    public var motionChannels: [IIOChannel] {
        channels.filter { !$0.isOutput && ($0.type == .accel || $0.type == .anglvel) }
    }

    /// Whether the driver set up a buffer to capture into (its channels are
    /// scan elements). Without one only single raw reads are possible.
    public var hasBuffer: Bool { channels.contains { $0.isScanElement && !$0.isOutput } }
}
