// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices

extension EvdevMockSuites {
    @Suite("Joy-Con-like IMU node", .enabled(if: UmockdevPreload.isActive))
    struct JoyCon {
        let imu = MockEvdevDevice.joyConLeftIMU()

        @Test("name, upper-case uniq, Bluetooth ids, accelerometer property")
        func identity() throws {
            try EvdevMockSuites.withOpenNode(imu) { _, node, handler in
                #expect(node.name == "Nintendo Switch Left Joy-Con IMU")
                #expect(node.uniq == "98:B6:E9:01:02:03")
                #expect(node.id == EvdevInputID(bustype: 0x05, vendor: 0x057e, product: 0x2006, version: 0x8001))
                #expect(node.isMotionSensor)
                #expect(node.eventTypes == [.syn, .abs, .msc])
                #expect(handler.unansweredRequests.isEmpty)
            }
        }

        @Test("absinfo: 4096 per g over ±32767, 14247 per °/s over ±32767000, fuzz 10, flat 0")
        func absInfo() throws {
            try EvdevMockSuites.withOpenNode(imu) { _, node, _ in
                for code in [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ] {
                    #expect(node.absInfo(code) == EvdevAbsInfo(minimum: -32767, maximum: 32767, fuzz: 10, flat: 0, resolution: 4096))
                }
                for code in [EvdevCode.absRX, EvdevCode.absRY, EvdevCode.absRZ] {
                    #expect(node.absInfo(code) == EvdevAbsInfo(minimum: -32_767_000, maximum: 32_767_000, fuzz: 10, flat: 0,
                                                                resolution: 14247))
                }
            }
        }

        @Test("three samples of one report come as three frames, each with its MSC_TIMESTAMP, in order")
        func threeSamplesPerReport() throws {
            try EvdevMockSuites.withOpenNode(imu) { testbed, node, _ in
                try node.setClock(.monotonic)
                let report: Int64 = 20_000_000_000
                var stream: [MockInputEvent] = []
                for sample in 0..<3 {
                    stream += MockInputEvent.motionFrame(
                        accel: (Int32(sample), -4096, 100), gyro: (14247 * Int32(sample), 0, -14247),
                        deviceMicroseconds: UInt32(1_000_000 + sample * 5000), at: report + Int64(sample) * 20_000)
                }
                try testbed.writeEvents(stream, to: imu.devicePath)
                let back = try node.readBack(count: stream.count)
                #expect(back.events == expected(stream))
                let frames = back.events.filter(\.isSynReport).count
                #expect(frames == 3)
                let deviceTimes = back.events.filter { $0.type == .msc && $0.code == EvdevCode.mscTimestamp }.map(\.value)
                #expect(deviceTimes == [1_000_000, 1_005_000, 1_010_000])
            }
        }
    }
}

@Suite("Joy-Con mock tests, run under umockdev-wrapper")
struct JoyConUnderPreload {
    @Test("the Joy-Con mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("JoyCon")
    }
}
