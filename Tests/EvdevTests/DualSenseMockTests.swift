// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices
import LibC
import SystemCalls

extension EvdevMockSuites {
    @Suite("DualSense-like motion node", .enabled(if: UmockdevPreload.isActive))
    struct DualSense {
        let motion = MockEvdevDevice.dualSenseMotion()

        @Test("name, uniq, ids, no phys (as hid-playstation sets none) and the accelerometer property read back")
        func identity() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, _ in
                #expect(node.path == "/dev/input/event0")
                #expect(node.name == "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors")
                #expect(node.uniq == "aa:bb:cc:dd:ee:ff")
                #expect(node.phys == nil)
                #expect(node.id == EvdevInputID(bustype: 0x03, vendor: 0x054c, product: 0x0ce6, version: 0x8100))
                #expect(node.driverVersion == 0x010001)
                #expect(node.isMotionSensor)
                #expect(node.hasProperty(.accelerometer))
                #expect(!node.hasProperty(.pointer))
            }
        }

        @Test("it sends ABS_X…ABS_RZ and MSC_TIMESTAMP, nothing else")
        func capabilities() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, _ in
                #expect(node.eventTypes == [.syn, .abs, .msc])
                #expect(node.eventCodes(of: .abs) == [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ,
                                                      EvdevCode.absRX, EvdevCode.absRY, EvdevCode.absRZ])
                #expect(node.eventCodes(of: .msc) == [EvdevCode.mscTimestamp])
                #expect(node.hasEvent(type: .msc, code: EvdevCode.mscTimestamp))
                #expect(!node.hasEvent(type: .abs, code: EvdevCode.absHat0X))
                #expect(!node.hasEventType(.key))
                #expect(node.eventCodes(of: .key).isEmpty)
            }
        }

        @Test("absinfo: 8192 per g over ±4 g, 1024 per °/s over ±2048 °/s, fuzz 16, flat 0")
        func absInfo() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, _ in
                for code in [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ] {
                    #expect(node.absInfo(code) == EvdevAbsInfo(value: 0, minimum: -32768, maximum: 32768, fuzz: 16, flat: 0,
                                                                resolution: 8192))
                }
                for code in [EvdevCode.absRX, EvdevCode.absRY, EvdevCode.absRZ] {
                    #expect(node.absInfo(code) == EvdevAbsInfo(value: 0, minimum: -2_097_152, maximum: 2_097_152, fuzz: 16,
                                                                flat: 0, resolution: 1024))
                }
                #expect(node.absInfo(EvdevCode.absHat0X) == nil)
            }
        }

        @Test("opening asks exactly the ioctls libevdev 1.13 makes, and the mock answers them all (EVIOCGPHYS with ENOENT, as the real driver)")
        func openingRequests() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, _, handler in
                let asked = handler.requestLog.map(\.request.name)
                #expect(asked == libevdevOpeningRequests + ["EVIOCGABS(ABS_X)", "EVIOCGABS(ABS_Y)", "EVIOCGABS(ABS_Z)",
                                                            "EVIOCGABS(ABS_RX)", "EVIOCGABS(ABS_RY)", "EVIOCGABS(ABS_RZ)"])
                #expect(handler.unansweredRequests.isEmpty)
                #expect(handler.requestLog.allSatisfy { $0.answer.result >= 0 || $0.request.name.hasPrefix("EVIOCGPHYS") },
                        "\(handler.requestLog)")
            }
        }

        @Test("setClock(.monotonic) sends EVIOCSCLOCKID with CLOCK_MONOTONIC; an unknown clock is refused naming the node")
        func clock() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, handler in
                try node.setClock(.monotonic)
                #expect(handler.clockIDs == [CLOCK_MONOTONIC])
                #expect { try node.setClock(EvdevClock(rawValue: 42)) } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.errno == EINVAL && e.path == "/dev/input/event0" && e.description.contains("clock 42")
                }
            }
        }

        @Test("a stream of frames reads back exactly: order, values, µs times, MSC_TIMESTAMP wrapping")
        func streamReadsBack() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try node.setClock(.monotonic)
                let base: Int64 = 5_000_123_000
                let stream = MockDeviceFrames.dualSense((0, 0, 8192), (0, 0, 0), device: 0xFFFF_E000, at: base)
                    + MockDeviceFrames.dualSense((-32768, 32768, 8191), (2_097_152, -2_097_152, 1024), device: 0xFFFF_F000,
                                                 at: base + 4_000_000)
                    + MockDeviceFrames.dualSense((1, -1, 0x0d0a), (0x1113, 0x1a1c, -0x0300), device: 0x0000_0C18,
                                                 at: base + 8_001_000)
                try testbed.writeEvents(stream, to: motion.devicePath)
                let back = try node.readBack(count: stream.count)
                #expect(back.events == expected(stream))
                #expect(back.results.allSatisfy { if case .events = $0 { true } else { false } }, "\(back.results)")
                #expect(node.currentValue(type: .abs, code: EvdevCode.absRZ) == -0x0300)
                #expect(node.absInfo(EvdevCode.absZ)?.value == 0x0d0a)
            }
        }

        @Test("a buffer smaller than the stream takes it in several batches, nothing lost or reordered")
        func smallBuffer() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                var stream: [MockInputEvent] = []
                for i in 0..<10 {
                    stream += MockDeviceFrames.dualSense((Int32(i), 0, 8192), (0, Int32(-i), 0), device: UInt32(i * 4000),
                                                         at: 1_000_000_000 + Int64(i) * 4_000_000)
                }
                try testbed.writeEvents(stream, to: motion.devicePath)
                let back = try node.readBack(count: stream.count, batch: 3)
                #expect(back.events == expected(stream))
                #expect(back.results.count == (stream.count + 2) / 3)
            }
        }

        @Test("every byte value passes through the node unchanged")
        func everyByteValue() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                for half in 0..<2 {
                    var stream: [MockInputEvent] = []
                    for b in (half * 128)..<(half * 128 + 128) {
                        let byte = UInt32(b)
                        let value = Int32(bitPattern: byte | byte << 8 | byte << 16 | byte << 24)
                        stream.append(MockInputEvent(seconds: b, microseconds: b * 1001, type: LinuxInput.EV_ABS,
                                                     code: LinuxInput.ABS_RX, value: value))
                    }
                    stream.append(.synReport(at: 300_000_000_000))
                    try testbed.writeEvents(stream, to: motion.devicePath)
                    let back = try node.readBack(count: stream.count)
                    #expect(back.events == expected(stream))
                }
            }
        }

        @Test("with nothing sent, a read would block and waiting times out")
        func nothingToRead() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, _ in
                var buffer = [EvdevEvent](repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0), count: 8)
                let result = try buffer.withUnsafeMutableBufferPointer { try node.readEvents(into: $0) }
                #expect(result == .wouldBlock)
                let readable = try node.waitForEvents(timeoutMilliseconds: 20)
                #expect(!readable)
            }
        }

        @Test("grab takes the node; a second reader's grab fails with EBUSY naming the node; ungrab frees it")
        func grab() throws {
            try EvdevMockSuites.withOpenNode(motion) { _, node, handler in
                try node.grab()
                #expect(handler.isGrabbed)
                let other = try EvdevDevice(path: motion.devicePath)
                #expect { try other.grab() } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.errno == EBUSY && e.path == "/dev/input/event0" && e.description.contains("another program")
                }
                try node.ungrab()
                #expect(!handler.isGrabbed)
                try other.grab()
                #expect(handler.isGrabbed)
            }
        }

        @Test("sysfs shows the node as the kernel does: dev 13:64, the input device's name, uniq, properties, capabilities")
        func sysfs() throws {
            try EvdevMockSuites.withTestbed([motion, .dualSenseGamepad()]) { testbed in
                #expect(testbed.readFile("/sys/class/input/event0/dev") == "13:64")
                #expect(testbed.readFile("/sys/class/input/event0/device/name") == motion.name)
                #expect(testbed.readFile("/sys/class/input/event0/device/uniq") == "aa:bb:cc:dd:ee:ff")
                #expect(testbed.readFile("/sys/class/input/event0/device/properties") == "40")
                #expect(testbed.readFile("/sys/class/input/event0/device/capabilities/abs") == "3f")
                #expect(testbed.readFile("/sys/class/input/event1/device/uniq") == "aa:bb:cc:dd:ee:ff")
                #expect(testbed.readFile("/sys/class/input/event1/device/properties") == "0")
                var info = stat()
                #expect(stat("/dev/input/event1", &info) == 0)
                #expect(info.st_mode & S_IFMT == S_IFCHR)
            }
        }

        @Test("its gamepad node shares the uniq, is not a motion sensor, and has the buttons and the D-pad hat")
        func gamepad() throws {
            let pad = MockEvdevDevice.dualSenseGamepad()
            try EvdevMockSuites.withOpenNode(pad, others: [motion]) { testbed, node, handler in
                #expect(node.name == "Sony Interactive Entertainment DualSense Wireless Controller")
                #expect(node.uniq == "aa:bb:cc:dd:ee:ff")
                #expect(!node.isMotionSensor)
                #expect(node.hasEvent(type: .key, code: EvdevCode.buttonSouth))
                #expect(node.hasEvent(type: .key, code: EvdevCode.buttonStart))
                #expect(node.absInfo(EvdevCode.absHat0Y) == EvdevAbsInfo(value: 0, minimum: -1, maximum: 1))
                #expect(node.absInfo(EvdevCode.absX)?.value == 128)
                #expect(handler.unansweredRequests.isEmpty)
                let presses: [MockInputEvent] = [
                    .abs(LinuxInput.ABS_HAT0Y, -1, at: 2_000_000_000), .synReport(at: 2_000_000_000),
                    .abs(LinuxInput.ABS_HAT0Y, 0, at: 2_100_000_000), .synReport(at: 2_100_000_000),
                    .key(LinuxInput.BTN_SOUTH, 1, at: 2_200_000_000), .synReport(at: 2_200_000_000),
                    .key(LinuxInput.BTN_SOUTH, 0, at: 2_300_000_000), .synReport(at: 2_300_000_000),
                ]
                try testbed.writeEvents(presses, to: pad.devicePath)
                let back = try node.readBack(count: presses.count)
                #expect(back.events == expected(presses))
            }
        }
    }
}

@Suite("DualSense mock tests, run under umockdev-wrapper")
struct DualSenseUnderPreload {
    @Test("the DualSense mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("DualSense")
    }
}
