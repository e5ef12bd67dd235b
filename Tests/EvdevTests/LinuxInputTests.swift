// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import CEvdev
import MockDevices

/// The mock devices write out the kernel's numbers instead of importing
/// them; these tests hold them to <linux/input.h>.
@Suite("Mock devices speak the kernel's input ABI")
struct LinuxInputTests {
    @Test("event types, codes, properties and buses match <linux/input.h>")
    func constantsMatchHeaders() {
        let pairs: [(UInt16, Int32, String)] = [
            (LinuxInput.EV_SYN, EV_SYN, "EV_SYN"), (LinuxInput.EV_KEY, EV_KEY, "EV_KEY"), (LinuxInput.EV_REL, EV_REL, "EV_REL"),
            (LinuxInput.EV_ABS, EV_ABS, "EV_ABS"), (LinuxInput.EV_MSC, EV_MSC, "EV_MSC"), (LinuxInput.EV_SW, EV_SW, "EV_SW"),
            (LinuxInput.EV_LED, EV_LED, "EV_LED"), (LinuxInput.EV_SND, EV_SND, "EV_SND"), (LinuxInput.EV_REP, EV_REP, "EV_REP"),
            (LinuxInput.EV_FF, EV_FF, "EV_FF"), (LinuxInput.EV_MAX, EV_MAX, "EV_MAX"),
            (LinuxInput.SYN_REPORT, SYN_REPORT, "SYN_REPORT"), (LinuxInput.SYN_DROPPED, SYN_DROPPED, "SYN_DROPPED"),
            (LinuxInput.ABS_X, ABS_X, "ABS_X"), (LinuxInput.ABS_Y, ABS_Y, "ABS_Y"), (LinuxInput.ABS_Z, ABS_Z, "ABS_Z"),
            (LinuxInput.ABS_RX, ABS_RX, "ABS_RX"), (LinuxInput.ABS_RY, ABS_RY, "ABS_RY"), (LinuxInput.ABS_RZ, ABS_RZ, "ABS_RZ"),
            (LinuxInput.ABS_HAT0X, ABS_HAT0X, "ABS_HAT0X"), (LinuxInput.ABS_HAT0Y, ABS_HAT0Y, "ABS_HAT0Y"),
            (LinuxInput.ABS_MT_SLOT, ABS_MT_SLOT, "ABS_MT_SLOT"), (LinuxInput.ABS_MAX, ABS_MAX, "ABS_MAX"),
            (LinuxInput.MSC_TIMESTAMP, MSC_TIMESTAMP, "MSC_TIMESTAMP"), (LinuxInput.MSC_MAX, MSC_MAX, "MSC_MAX"),
            (LinuxInput.KEY_ENTER, KEY_ENTER, "KEY_ENTER"), (LinuxInput.KEY_UP, KEY_UP, "KEY_UP"),
            (LinuxInput.KEY_LEFT, KEY_LEFT, "KEY_LEFT"), (LinuxInput.KEY_RIGHT, KEY_RIGHT, "KEY_RIGHT"),
            (LinuxInput.KEY_DOWN, KEY_DOWN, "KEY_DOWN"), (LinuxInput.KEY_MAX, KEY_MAX, "KEY_MAX"),
            (LinuxInput.BTN_SOUTH, BTN_SOUTH, "BTN_SOUTH"), (LinuxInput.BTN_EAST, BTN_EAST, "BTN_EAST"),
            (LinuxInput.BTN_NORTH, BTN_NORTH, "BTN_NORTH"), (LinuxInput.BTN_WEST, BTN_WEST, "BTN_WEST"),
            (LinuxInput.BTN_TL, BTN_TL, "BTN_TL"), (LinuxInput.BTN_TR, BTN_TR, "BTN_TR"),
            (LinuxInput.BTN_TL2, BTN_TL2, "BTN_TL2"), (LinuxInput.BTN_TR2, BTN_TR2, "BTN_TR2"),
            (LinuxInput.BTN_SELECT, BTN_SELECT, "BTN_SELECT"), (LinuxInput.BTN_START, BTN_START, "BTN_START"),
            (LinuxInput.BTN_MODE, BTN_MODE, "BTN_MODE"), (LinuxInput.BTN_THUMBL, BTN_THUMBL, "BTN_THUMBL"),
            (LinuxInput.BTN_THUMBR, BTN_THUMBR, "BTN_THUMBR"), (LinuxInput.BTN_DPAD_UP, BTN_DPAD_UP, "BTN_DPAD_UP"),
            (LinuxInput.BTN_DPAD_DOWN, BTN_DPAD_DOWN, "BTN_DPAD_DOWN"), (LinuxInput.BTN_DPAD_LEFT, BTN_DPAD_LEFT, "BTN_DPAD_LEFT"),
            (LinuxInput.BTN_DPAD_RIGHT, BTN_DPAD_RIGHT, "BTN_DPAD_RIGHT"),
            (LinuxInput.REL_MAX, REL_MAX, "REL_MAX"), (LinuxInput.SW_MAX, SW_MAX, "SW_MAX"), (LinuxInput.LED_MAX, LED_MAX, "LED_MAX"),
            (LinuxInput.SND_MAX, SND_MAX, "SND_MAX"), (LinuxInput.FF_MAX, FF_MAX, "FF_MAX"), (LinuxInput.FF_RUMBLE, FF_RUMBLE, "FF_RUMBLE"),
            (LinuxInput.REP_DELAY, REP_DELAY, "REP_DELAY"), (LinuxInput.REP_PERIOD, REP_PERIOD, "REP_PERIOD"),
            (LinuxInput.INPUT_PROP_ACCELEROMETER, INPUT_PROP_ACCELEROMETER, "INPUT_PROP_ACCELEROMETER"),
            (LinuxInput.INPUT_PROP_MAX, INPUT_PROP_MAX, "INPUT_PROP_MAX"),
            (LinuxInput.BUS_USB, BUS_USB, "BUS_USB"), (LinuxInput.BUS_BLUETOOTH, BUS_BLUETOOTH, "BUS_BLUETOOTH"),
            (LinuxInput.BUS_VIRTUAL, BUS_VIRTUAL, "BUS_VIRTUAL"), (LinuxInput.BUS_I2C, BUS_I2C, "BUS_I2C"),
            (LinuxInput.BUS_HOST, BUS_HOST, "BUS_HOST"),
        ]
        for (mock, header, name) in pairs {
            #expect(Int32(mock) == header, "\(name)")
        }
        #expect(LinuxInput.EV_VERSION == EV_VERSION)
    }

    @Test("a mock input_event has the C struct's size and layout")
    func inputEventLayout() {
        #expect(MockInputEvent.size == MemoryLayout<input_event>.size)
        let mock = MockInputEvent(seconds: 1234, microseconds: 567_890, type: LinuxInput.EV_ABS, code: LinuxInput.ABS_RZ,
                                  value: -2_097_152)
        let bytes = mock.bytes
        #expect(bytes.count == MemoryLayout<input_event>.size)
        let event = bytes.withUnsafeBytes { $0.loadUnaligned(as: input_event.self) }
        #expect(event.time.tv_sec == 1234)
        #expect(event.time.tv_usec == 567_890)
        #expect(event.type == UInt16(EV_ABS))
        #expect(event.code == UInt16(ABS_RZ))
        #expect(event.value == -2_097_152)
    }

    @Test("an event time in nanoseconds is kept to the microsecond, as a timeval holds it")
    func eventTimeInNanoseconds() {
        let e = MockInputEvent(nanoseconds: 12_345_678_901, type: LinuxInput.EV_SYN, code: LinuxInput.SYN_REPORT, value: 0)
        #expect(e.seconds == 12)
        #expect(e.microseconds == 345_678)
        #expect(e.nanoseconds == 12_345_678_000)
    }

    @Test("MSC_TIMESTAMP carries the device's 32-bit µs clock, past 2^31 as a negative value")
    func mscTimestampWraps() {
        #expect(MockInputEvent.mscTimestamp(0xFFFF_FFF0, at: 0).value == -16)
        #expect(MockInputEvent.mscTimestamp(5000, at: 0).value == 5000)
    }
}
