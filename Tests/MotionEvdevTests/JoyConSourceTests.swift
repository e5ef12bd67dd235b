// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import MotionCore
import MotionDevices

/// A Joy-Con-like IMU node (4096 per g, 14247 per °/s): hid-nintendo sends
/// three samples per 15 ms report, each its own frame, in quick succession.
extension EvdevSourceMockSuites {
    @Suite("Joy-Con-like node: three frames per report", .enabled(if: UmockdevPreload.isActive))
    struct JoyCon {
        let imu = MockEvdevDevice.joyConLeftIMU()

        func expected(_ accel: (Int32, Int32, Int32), _ gyro: (Int32, Int32, Int32), at time: Int64) -> MotionSample {
            MotionSample(timestamp: time, acceleration: Expected.acceleration(accel, perG: 4096),
                         rotationRate: Expected.rotationRate(gyro, perDegreePerSecond: 14247),
                         fields: [.acceleration, .rotationRate])
        }

        @Test("three frames with one kernel time and MSC stamps 5000 µs apart are three samples 5 ms apart; the next report follows on")
        func threeSamplesPerReport() throws {
            try EvdevSourceMockSuites.withTestbed([imu]) { testbed in
                let source = SourceUnderTest.make(imu)
                try source.start()
                defer { source.stop() }
                let report: Int64 = 20_000_000_000
                var stream: [MockInputEvent] = []
                var want: [MotionSample] = []
                for i in 0..<6 {
                    // Reports at kernel times 0 and 15.4 ms (0.4 ms late); device clock 5 ms per sample.
                    let kernel = report + (i < 3 ? 0 : 15_400_000)
                    let accel: (Int32, Int32, Int32) = (Int32(i) * 100, -4096, 100 - Int32(i))
                    let gyro: (Int32, Int32, Int32) = (14247 * Int32(i), 7, -14247)
                    stream += MockInputEvent.motionFrame(accel: accel, gyro: gyro,
                                                         deviceMicroseconds: UInt32(1_000_000 + i * 5000), at: kernel)
                    want.append(expected(accel, gyro, at: report + Int64(i) * 5_000_000))
                }
                try testbed.writeEvents(stream, to: imu.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 6)
                #expect(got.map(\.timestamp) == (0..<6).map { report + Int64($0) * 5_000_000 })
                #expect(got == want)
                #expect(source.profile.kind == .joyConLeft)
                #expect(source.rejectedCount == 0)
            }
        }
    }
}

@Suite("Joy-Con source mock tests, run under umockdev-wrapper")
struct JoyConSourceUnderPreload {
    @Test("the Joy-Con source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("JoyCon")
    }
}
