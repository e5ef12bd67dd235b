// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices

extension EvdevMockSuites {
    @Suite("Accelerometer-only node without resolution", .enabled(if: UmockdevPreload.isActive))
    struct AccelOnly {
        @Test("ABS_X/Y/Z with resolution 0, no gyro axes, no MSC_TIMESTAMP")
        func capabilities() throws {
            try EvdevMockSuites.withOpenNode(.accelOnly()) { _, node, handler in
                #expect(node.name == "ST LIS3LV02DL Accelerometer")
                #expect(node.isMotionSensor)
                #expect(node.uniq == nil)
                #expect(node.eventTypes == [.syn, .abs])
                #expect(node.eventCodes(of: .abs) == [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ])
                #expect(node.absInfo(EvdevCode.absX) == EvdevAbsInfo(minimum: -2048, maximum: 2048, fuzz: 3, flat: 3, resolution: 0))
                #expect(node.absInfo(EvdevCode.absRX) == nil)
                #expect(!node.hasEventType(.msc))
                #expect(handler.unansweredRequests.isEmpty)
            }
        }

        @Test("without INPUT_PROP_ACCELEROMETER (as lis3lv02d really is) it is not a motion sensor by property")
        func withoutProperty() throws {
            try EvdevMockSuites.withOpenNode(.accelOnly(accelerometerProperty: false)) { _, node, _ in
                #expect(!node.isMotionSensor)
                #expect(node.eventCodes(of: .abs) == [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ])
            }
        }

        @Test("accel-only frames read back exactly; event times are the only clock")
        func stream() throws {
            let device = MockEvdevDevice.accelOnly()
            try EvdevMockSuites.withOpenNode(device) { testbed, node, _ in
                var stream: [MockInputEvent] = []
                for i in 0..<5 {
                    stream += MockInputEvent.motionFrame(accel: (Int32(i * 10), -1000, 1000), gyro: nil, deviceMicroseconds: nil,
                                                         at: 3_000_000_000 + Int64(i) * 20_000_000)
                }
                try testbed.writeEvents(stream, to: device.devicePath)
                let back = try node.readBack(count: stream.count)
                #expect(back.events == expected(stream))
                #expect(back.events.allSatisfy { $0.type != .msc })
            }
        }
    }
}

@Suite("Accel-only mock tests, run under umockdev-wrapper")
struct AccelOnlyUnderPreload {
    @Test("the accel-only mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("AccelOnly")
    }
}
