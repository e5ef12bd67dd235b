// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Fake IIO IMUs shaped like the drivers a Raspberry Pi user meets
/// (the kernel drivers' sysfs ABI): the files, names, scan orders and formats
/// those drivers expose, with plausible scales.
extension MockIIODevice {
    /// inv_mpu6050: one device with accel x/y/z (scan 0–2), temp (3),
    /// anglvel x/y/z (4–6) as big-endian s16, a 64-bit timestamp (7), and a
    /// data-ready trigger "mpu6050-dev0". A 24-byte scan: 14 bytes of
    /// values, 2 of padding, 8 of timestamp.
    public static func mpu6050(id: String = "iio:device0", minor: Int = 0, triggerID: String = "trigger0",
                               extraAttributes: [String: String] = [:]) -> MockIIODevice {
        let be16 = "be:s16/16>>0"
        var attributes = [
            "sampling_frequency": "50",
            "sampling_frequency_available": "10 20 50 100 200 500",
            "current_timestamp_clock": "realtime",
            "in_accel_scale": "0.000598",
            "in_accel_scale_available": "0.000598 0.001196 0.002392 0.004785",
            "in_anglvel_scale": "0.000133090",
            "in_anglvel_scale_available": "0.000133090 0.000266181 0.000532362 0.001064724",
            "in_temp_scale": "2.941176",
            "in_temp_offset": "12420",
            // One matrix per channel type, as the real driver has them
            // (Tests/Fixtures/kernel/iio-mpu6050.umockdev).
            "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1",
            "in_anglvel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1",
        ]
        attributes.merge(extraAttributes) { $1 }
        return MockIIODevice(
            id: id, name: "mpu6050",
            channels: [
                .scanElement("accel", "x", index: 0, format: be16, attributes: ["calibbias": "0"]),
                .scanElement("accel", "y", index: 1, format: be16, attributes: ["calibbias": "0"]),
                .scanElement("accel", "z", index: 2, format: be16, attributes: ["calibbias": "0"]),
                .scanElement("temp", index: 3, format: be16),
                .scanElement("anglvel", "x", index: 4, format: be16, attributes: ["calibbias": "0"]),
                .scanElement("anglvel", "y", index: 5, format: be16, attributes: ["calibbias": "0"]),
                .scanElement("anglvel", "z", index: 6, format: be16, attributes: ["calibbias": "0"]),
                .timestamp(index: 7),
            ],
            attributes: attributes,
            deviceNumber: (241, minor),
            trigger: MockIIOTrigger(id: triggerID, name: "mpu6050-dev\(minor)"))
    }

    /// An MPU-9250 as inv_mpu6050 leaves it: the MPU-6050's channels with the
    /// AK8963 magnetometer added, magn x/y/z (scan 7–9, big-endian s16: the
    /// driver has the chip swap the AK8963's bytes as it copies them), the
    /// timestamp at 10. Each magnetometer axis has its own scale (0.15 µT in
    /// gauss, adjusted by the chip's factory sensitivity), and the
    /// magnetometer its own mount matrix: the AK8963's x and y are the MPU's
    /// y and x, its z the MPU's -z (inv_mpu_magn.c), for a chip whose own
    /// matrix is identity.
    public static func mpu9250(id: String = "iio:device0", minor: Int = 0, triggerID: String = "trigger0") -> MockIIODevice {
        var mpu = mpu6050(id: id, minor: minor, triggerID: triggerID)
        mpu.name = "mpu9250"
        mpu.trigger?.name = "mpu9250-dev\(minor)"   // the driver names its trigger after the chip
        mpu.channels.removeLast()   // the timestamp, which moves to 10
        let be16 = "be:s16/16>>0"
        for (i, (axis, scale)) in [("x", "0.001508"), ("y", "0.001523"), ("z", "0.001449")].enumerated() {
            mpu.channels.append(.scanElement("magn", axis, index: 7 + i, format: be16, attributes: ["scale": scale]))
        }
        mpu.channels.append(.timestamp(index: 10))
        mpu.attributes["in_magn_mount_matrix"] = "0, 1, 0; 1, 0, 0; 0, 0, -1"
        return mpu
    }

    /// Bosch BNO055 as its driver (drivers/iio/imu/bno055/bno055.c) leaves it
    /// after probe, in fusion mode: one device "bno055" whose scan follows the
    /// chip's data registers: accel x/y/z (0–2), magn (3–5), anglvel (6–8),
    /// [Euler yaw/roll/pitch (9–11), the quaternion (12, four s16), linear
    /// acceleration (13–15): left out, below], gravity (16–18), the soft
    /// timestamp (19); every axis little-endian s16. Scales
    /// shared by type as the driver computes them in fusion mode: accel and
    /// gravity 1/100 m/s², anglvel 1/900 rad/s, magn 1/160 (gauss), Euler
    /// angles 1/16°, the quaternion 2^-14. Offsets read 0 in fusion mode. A
    /// triggered buffer with no trigger of its own (no IRQ in the driver).
    /// Not recorded from the running driver: no kernel available to this
    /// project's test tier builds it.
    ///
    /// Left out: the Euler angles and the quaternion (`rot` channels modified
    /// yaw, roll, pitch, quaternion) and linear acceleration (accel modified
    /// linear_x…). With the Euler angles, or with linear acceleration, libiio
    /// 0.24 cannot make a context at all under umockdev (EINVAL; the
    /// quaternion was not tried alone), which points at its table of modifier names
    /// (one libiio version spells IIO_MOD_LINEAR_X "x-g", not "linear_x").
    /// Whether a real BNO055 breaks libiio 0.24 the same way is not checked
    /// here (hardware.md says so).
    public static func bno055(id: String = "iio:device0", minor: Int = 0) -> MockIIODevice {
        let s16 = "le:s16/16>>0"
        func axes(_ type: String, _ modifiers: [String], from index: Int, offset: Bool) -> [MockIIOChannel] {
            modifiers.enumerated().map { i, m in
                .scanElement(type, m, index: index + i, format: s16, attributes: offset ? ["offset": "0"] : [:])
            }
        }
        return MockIIODevice(
            id: id, name: "bno055", parent: "/devices/platform/soc/fe804000.i2c/i2c-1/1-0028",
            channels: axes("accel", ["x", "y", "z"], from: 0, offset: true)
                + axes("magn", ["x", "y", "z"], from: 3, offset: true)
                + axes("anglvel", ["x", "y", "z"], from: 6, offset: true)
                + axes("gravity", ["x", "y", "z"], from: 16, offset: false)
                + [.timestamp(index: 19)],
            attributes: [
                "in_accel_scale": "0.010000000",
                "in_gravity_scale": "0.010000000",
                "in_anglvel_scale": "0.001111111",
                "in_anglvel_scale_available": "0.001111111",
                "in_magn_scale": "0.006250000",
                "in_accel_filter_low_pass_3db_frequency": "62.500000",
                "in_anglvel_filter_low_pass_3db_frequency": "32",
                "in_magn_sampling_frequency": "20",
                "in_magn_sampling_frequency_available": "20",
                "fusion_enable": "1",
                "in_accel_raw_range": "3924",
            ],
            deviceNumber: (241, minor))
    }

    /// st_lsm6dsx accelerometer half: "lsm6ds3_accel", accel x/y/z (scan 0–2)
    /// as little-endian s16 and a timestamp (3); hardware FIFO, so no trigger.
    /// Attribute names and number formats ("104.000000", "12.500 26.000 …",
    /// "0.000598205", the chip's `mount_matrix` on this half only) as the real
    /// driver writes them (Tests/Fixtures/kernel/iio-lsm6ds3.umockdev); the
    /// buffer and scan layout, which the real driver makes only with an
    /// interrupt line, follow its source.
    public static func lsm6ds3Accel(id: String = "iio:device0", minor: Int = 0) -> MockIIODevice {
        lsm6ds3Half(id: id, minor: minor, name: "lsm6ds3_accel", type: "accel", scale: "0.000598205",
                    available: "0.000598205 0.001196411 0.002392822 0.004785645",
                    extra: ["mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"])
    }

    /// st_lsm6dsx gyroscope half: "lsm6ds3_gyro", anglvel x/y/z (scan 0–2) and a timestamp (3).
    public static func lsm6ds3Gyro(id: String = "iio:device1", minor: Int = 1) -> MockIIODevice {
        lsm6ds3Half(id: id, minor: minor, name: "lsm6ds3_gyro", type: "anglvel", scale: "0.000152716",
                    available: "0.000152716 0.000305432 0.000610865 0.001221729")
    }

    private static func lsm6ds3Half(id: String, minor: Int, name: String, type: String, scale: String,
                                    available: String, extra: [String: String] = [:]) -> MockIIODevice {
        let le16 = "le:s16/16>>0"
        return MockIIODevice(
            id: id, name: name, parent: "/devices/platform/soc/fe804000.i2c/i2c-1/1-006a",
            channels: [
                .scanElement(type, "x", index: 0, format: le16),
                .scanElement(type, "y", index: 1, format: le16),
                .scanElement(type, "z", index: 2, format: le16),
                .timestamp(index: 3),
            ],
            attributes: [
                "sampling_frequency": "104.000000",
                "sampling_frequency_available": "12.500 26.000 52.000 104.000 208.000 416.000",
                "current_timestamp_clock": "realtime",
                "in_\(type)_scale": scale,
                "in_\(type)_scale_available": available,
            ].merging(extra) { $1 },
            buffer: (length: 1, watermark: 1, enabled: false),
            currentTrigger: nil,
            deviceNumber: (241, minor))
    }
}
