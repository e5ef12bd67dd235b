// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import LinuxMotion
import MockDevices
import MotionCore
import MotionDevices
import Testing
import TestSupport

/// The motion library over an IIO device that vanishes mid-capture: the
/// async sequence ends with `MotionError.sensorStopped` in the source's words.
extension IIOMotionSourceMockTests {
    @Test("LinuxMotion: the device vanishing ends the async sequence with sensorStopped, naming it")
    func managerSequenceEndsWhenDeviceVanishes() async throws {
        let mpu = MockIIODevice.mpu6050()
        let testbed = Testbed()
        try testbed.add(mpu)
        let imus = IIOIMU.find(in: try IIOContext())
        try #require(imus.count == 1)
        let manager = MotionManager(source: IIOMotionSource(imu: imus[0], noDataTimeout: .seconds(5)),
                                    description: "mpu6050 on iio:device0", calibrationStore: nil)
        var values = try manager.deviceMotionUpdates().makeAsyncIterator()
        try testbed.writeScans(mpuScan((1, 2, 3), (4, 5, 6), 10), to: "/dev/iio:device0")
        #expect(try await values.next() != nil)

        testbed.removeDevice(sysfsPath: mpu.sysfsDevicePath)
        do {
            while try await values.next() != nil {}
            Issue.record("the sequence ended without an error")
        } catch let error as MotionError {
            guard case .sensorStopped(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("iio:device0") && why.contains("is gone"), "\(why)")
        }
        manager.stop()
        withExtendedLifetime(testbed) {}
    }
}
