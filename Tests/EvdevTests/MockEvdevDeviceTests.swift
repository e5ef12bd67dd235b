// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices

@Suite("Mock evdev devices describe themselves as the kernel would")
struct MockEvdevDeviceTests {
    @Test("bitmaps print as input_print_bitmap does: hex longs, highest first, leading zeros left out")
    func sysfsBitmaps() {
        #expect(MockEvdevDevice.sysfsBitmapText([0]) == "0")
        #expect(MockEvdevDevice.sysfsBitmapText([0x3f]) == "3f")
        #expect(MockEvdevDevice.sysfsBitmapText([0x19, 0]) == "19")
        #expect(MockEvdevDevice.sysfsBitmapText([0, 0x7fdb_0000_0000_0000, 0, 0]) == "7fdb000000000000 0")
    }

    @Test("the DualSense motion node: properties 40, ev 19, abs 3f, msc 20, event0 at 13:64")
    func dualSenseFiles() {
        let d = MockEvdevDevice.dualSenseMotion()
        let files = Dictionary(uniqueKeysWithValues: d.inputFiles.map { ($0.path, $0.value) })
        #expect(files["properties"] == "40")
        #expect(files["capabilities/ev"] == "19")
        #expect(files["capabilities/abs"] == "3f")
        #expect(files["capabilities/msc"] == "20")
        #expect(files["capabilities/key"] == "0")
        #expect(files["uniq"] == "aa:bb:cc:dd:ee:ff")
        #expect(files["id/vendor"] == "054c")
        #expect(d.deviceNumber == (13, 64))
        #expect(d.devicePath == "/dev/input/event0")
        #expect(d.umockdevDescription.contains("N: input/event0\nE: DEVNAME=/dev/input/event0"))
        #expect(d.umockdevDescription.contains("E: ID_INPUT_ACCELEROMETER=1"))
        #expect(d.umockdevDescription.contains("A: dev=13:64\\n"))
    }

    @Test("the gamepad's key bitmap has BTN_SOUTH…BTN_THUMBR in the fifth long")
    func gamepadKeys() {
        let pad = MockEvdevDevice.dualSenseGamepad()
        let keys = pad.inputFiles.first { $0.path == "capabilities/key" }?.value
        #expect(keys == "7fdb000000000000 0 0 0 0")
        #expect(pad.uniq == MockEvdevDevice.dualSenseMotion().uniq)
    }

    @Test("the Sense HAT joystick sends EV_KEY and EV_REP with the driver's codes")
    func senseHat() {
        let downstream = MockEvdevDevice.senseHatJoystick(driver: .rpisenseJS)
        #expect(downstream.eventTypes == [LinuxInput.EV_SYN, LinuxInput.EV_KEY, LinuxInput.EV_REP])
        #expect(downstream.codes[LinuxInput.EV_KEY] == [LinuxInput.KEY_UP, LinuxInput.KEY_DOWN, LinuxInput.KEY_LEFT,
                                                         LinuxInput.KEY_RIGHT, LinuxInput.KEY_ENTER])
        let mainline = MockEvdevDevice.senseHatJoystick(driver: .sensehatJoystick)
        #expect(mainline.codes[LinuxInput.EV_KEY]?.contains(LinuxInput.BTN_SELECT) == true)
    }
}
