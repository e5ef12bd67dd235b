// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices

extension EvdevMockSuites {
    @Suite("Sense HAT joystick", .enabled(if: UmockdevPreload.isActive))
    struct SenseHat {
        @Test("the Raspberry Pi kernel's driver: KEY_UP/DOWN/LEFT/RIGHT/ENTER, key repeat, BUS_I2C")
        func rpisenseJS() throws {
            let joystick = MockEvdevDevice.senseHatJoystick(driver: .rpisenseJS)
            try EvdevMockSuites.withOpenNode(joystick) { _, node, handler in
                #expect(node.name == "Raspberry Pi Sense HAT Joystick")
                #expect(node.phys == "rpi-sense-joy/input0")
                #expect(node.id.bustype == 0x18)
                #expect(!node.isMotionSensor)
                #expect(node.eventTypes == [.syn, .key, .rep])
                #expect(node.eventCodes(of: .key) == [EvdevCode.keyEnter, EvdevCode.keyUp, EvdevCode.keyLeft, EvdevCode.keyRight,
                                                      EvdevCode.keyDown])
                // EV_REP makes libevdev ask for the repeat settings too.
                #expect(handler.requestLog.map(\.request.name).contains("EVIOCGREP"))
                #expect(handler.unansweredRequests.isEmpty)
            }
        }

        @Test("mainline's driver: BTN_DPAD_* and BTN_SELECT")
        func mainline() throws {
            let joystick = MockEvdevDevice.senseHatJoystick(driver: .sensehatJoystick)
            try EvdevMockSuites.withOpenNode(joystick) { _, node, _ in
                #expect(node.phys == "sensehat-joystick/input0")
                #expect(node.eventCodes(of: .key) == [EvdevCode.buttonSelect, EvdevCode.buttonDpadUp, EvdevCode.buttonDpadDown,
                                                      EvdevCode.buttonDpadLeft, EvdevCode.buttonDpadRight])
            }
        }

        @Test("presses, autorepeat and releases read back in order")
        func presses() throws {
            let joystick = MockEvdevDevice.senseHatJoystick()
            try EvdevMockSuites.withOpenNode(joystick) { testbed, node, _ in
                let t: Int64 = 50_000_000_000
                let presses: [MockInputEvent] = [
                    .key(LinuxInput.KEY_UP, 1, at: t), .synReport(at: t),
                    .key(LinuxInput.KEY_UP, 2, at: t + 250_000_000), .synReport(at: t + 250_000_000),
                    .key(LinuxInput.KEY_UP, 0, at: t + 260_000_000), .synReport(at: t + 260_000_000),
                    .key(LinuxInput.KEY_ENTER, 1, at: t + 900_000_000), .synReport(at: t + 900_000_000),
                ]
                try testbed.writeEvents(presses, to: joystick.devicePath)
                let back = try node.readBack(count: presses.count)
                #expect(back.events == expected(presses))
                #expect(node.currentValue(type: .key, code: EvdevCode.keyEnter) == 1)
                #expect(node.currentValue(type: .key, code: EvdevCode.keyUp) == 0)
            }
        }
    }
}

@Suite("Sense HAT mock tests, run under umockdev-wrapper")
struct SenseHatUnderPreload {
    @Test("the Sense HAT mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("SenseHat")
    }
}
