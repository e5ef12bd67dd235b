// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Diagnostics
import IIO
import MotionCore
import MotionDevices
import MockDevices
import Testing
import TestSupport
import Handoff

/// This user's calibration file, as the IIO sources read it: its mount
/// matrix (`calibrate --orientation`) wins over udev's and the driver's, its
/// accelerometer calibration is applied in the chip's axes before the
/// mount, in capture and in polling alike, and `devices` says which is in force.
extension IIOMotionSourceMockTests {
    static let quarterTurn = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
    static let accelerometer = AccelerometerCalibration(bias: Vector3(0.5, -0.2, 0.1), scale: Vector3(1.02, 0.98, 1.01))

    /// A store holding, for the device `identity`, the user's quarter turn and accelerometer calibration.
    static func userStore(_ directory: TemporaryDirectory,
                          identity: String = "iio mpu6050 at platform/soc/fe804000.i2c/i2c-1/1-0068") throws -> CalibrationStore {
        let store = CalibrationStore(directory: directory.path)
        let saved = store.save(DeviceCalibration(accelerometer: Self.accelerometer, mount: Self.quarterTurn), for: identity)
        _ = try saved.get()
        return store
    }

    @Test("the user's mount matrix wins over the driver's, their accelerometer calibration comes first; scales and devices say so")
    func userCalibrationApplied() throws {
        let directory = TemporaryDirectory()
        let store = try Self.userStore(directory)
        let mpu = MockIIODevice.mpu6050(extraAttributes: ["mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        try withIMUs([mpu]) { testbed, imus in
            let source = IIOMotionSource(imu: imus[0], calibrations: store)
            try source.start()
            try testbed.writeScans(mpuScan((1000, -2000, 16000), (100, 0, 0), 1), to: "/dev/iio:device0")
            let got = collect(source, count: 1)
            let scales = source.scales
            source.stop()
            try #require(got.count == 1)
            let chip = Vector3(1000 * 0.000598, -2000 * 0.000598, 16000 * 0.000598)
            #expect(got[0].acceleration == Self.quarterTurn.apply(Self.accelerometer.apply(chip)))
            #expect(got[0].rotationRate == Self.quarterTurn.apply(Vector3(100 * 0.000133090, 0, 0)), "no calibration on the gyroscope")
            #expect(scales?.mount == Self.quarterTurn)
            #expect(scales?.accelerometer == Self.accelerometer)
            // Without the store, the driver's matrix and no calibration, as before.
            let plain = IIOMotionSource(imu: imus[0])
            try plain.start()
            try testbed.writeScans(mpuScan((1000, 0, 0), (0, 0, 0), 2), to: "/dev/iio:device0")
            let raw = collect(plain, count: 1)
            plain.stop()
            #expect(raw.first?.acceleration == Vector3(0, -1000 * 0.000598, 0))

            let lines = DeviceListing.lines(for: SensorSelection.examine(), calibrations: store).joined(separator: "\n")
            #expect(lines.contains("mount matrix: 0, -1, 0; 1, 0, 0; 0, 0, 1 (this user's calibrate --orientation, \(directory.path)/"), "\(lines)")
            #expect(lines.contains("accelerometer: calibrated (bias"), "\(lines)")
        }
    }
}

extension IIOPolledSourceMockTests {
    @Test("a polled IMU applies the user's calibration too: mount and accelerometer")
    func userCalibrationPolled() throws {
        let directory = TemporaryDirectory()
        try withMPU { testbed, imu in
            let store = try IIOMotionSourceMockTests.userStore(directory, identity: imu.identity)
            try setRaw(testbed, ["accel_x": 1000, "accel_y": -2000, "accel_z": 16000, "anglvel_x": 0, "anglvel_y": 0, "anglvel_z": 0])
            let source = IIOIMU.source(for: imu, rate: 100, calibrations: store)
            try source.start()
            var got: [MotionSample] = []
            _ = eventually {
                source.samples.drain { got.append($0) }
                return !got.isEmpty
            }
            let scale = source.scales?.accel ?? 0
            source.stop()
            try #require(!got.isEmpty)
            let chip = Vector3(1000, -2000, 16000) * scale
            let want = IIOMotionSourceMockTests.quarterTurn.apply(IIOMotionSourceMockTests.accelerometer.apply(chip))
            #expect((got[0].acceleration - want).length < 1e-9, "\(got[0].acceleration) against \(want)")
        }
    }
}
