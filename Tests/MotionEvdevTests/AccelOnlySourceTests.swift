// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import MotionCore
import MotionDevices

/// An accelerometer-only node with resolution 0 and no MSC_TIMESTAMP
/// (lis3lv02d-like): the scale comes from gravity (`GravityScaleEstimator`),
/// the times from the kernel's event stamps.
extension EvdevSourceMockSuites {
    @Suite("Accelerometer-only node without resolution", .enabled(if: UmockdevPreload.isActive))
    struct AccelOnly {
        let device = MockEvdevDevice.accelOnly()

        func frame(_ accel: (Int32, Int32, Int32), at time: Int64) -> [MockInputEvent] {
            MockInputEvent.motionFrame(accel: accel, gyro: nil, deviceMicroseconds: nil, at: time)
        }

        /// Kernel time of frame `i` (100 Hz).
        func time(_ i: Int) -> Int64 { 3_000_000_000 + Int64(i) * 10_000_000 }

        @Test("no samples before 50 still readings; then their length is 1 g, times are the kernel's, no gyro field")
        func gravityScaled() throws {
            try EvdevSourceMockSuites.withTestbed([device]) { testbed in
                let source = EvdevMotionSource(
                    node: InputNode(path: "/dev/input/event0", name: device.name, uniq: nil, isMotionSensor: true),
                    mount: .identity, reconnectInterval: .milliseconds(20))
                try source.start()
                defer { source.stop() }
                // 49 still readings give no sample: the first sample collected
                // below must be the 50th reading's.
                try testbed.writeEvents((0..<49).flatMap { frame((0, 0, 1000), at: time($0)) }, to: device.devicePath,
                                        waitUntilQueued: false)

                // The 50th still reading fixes 1000 units per g; later readings use it.
                let later: [(Int32, Int32, Int32)] = [(0, 0, 1000), (500, -250, 866), (-1000, 0, 0), (12, 34, -56)]
                try testbed.writeEvents(later.enumerated().flatMap { frame($0.element, at: time(49 + $0.offset)) },
                                        to: device.devicePath, waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: later.count)
                #expect(got.first?.acceleration == Vector3(0, 0, 9.80665))
                #expect(got == later.enumerated().map {
                    MotionSample(timestamp: time(49 + $0.offset), acceleration: Expected.acceleration($0.element, perG: 1000),
                                 fields: [.acceleration])
                })
                #expect(got.allSatisfy { $0.fields == [.acceleration] && $0.rotationRate == .zero })
                #expect(source.rate == 100)
                #expect(source.rejectedCount == 0)
                // Its calibration on demand would not hold: the scales say why.
                #expect(source.scales?.accelerometerScaledByGravity == true)
            }
        }

        @Test("readings that are not still (length swinging by ±20 %) never give a scale, so no samples")
        func movingGivesNoScale() throws {
            try EvdevSourceMockSuites.withTestbed([device]) { testbed in
                let source = SourceUnderTest.make(device)
                try source.start()
                defer { source.stop() }
                let moving = (0..<75).flatMap { i in frame((0, 0, i % 2 == 0 ? 800 : 1200), at: time(i)) }
                try testbed.writeEvents(moving, to: device.devicePath, waitUntilQueued: false)
                // Then 50 still readings: the first sample is the 50th's, so
                // the moving ones before gave neither a scale nor a sample.
                try testbed.writeEvents((75..<125).flatMap { frame((0, 0, 1000), at: time($0)) }, to: device.devicePath,
                                        waitUntilQueued: false)
                let got = SourceUnderTest.collect(source, count: 1)
                #expect(got.map(\.timestamp) == [time(124)])
                #expect(source.failure == nil)
            }
        }
    }
}

@Suite("Accel-only source mock tests, run under umockdev-wrapper")
struct AccelOnlySourceUnderPreload {
    @Test("the accel-only source mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevSourceMockSuites.expectPassesUnderPreload("AccelOnly")
    }
}
