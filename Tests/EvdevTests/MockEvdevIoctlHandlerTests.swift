// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices
import LibC

/// The mock's answers, without umockdev: what the kernel's evdev would say.
@Suite("The mock evdev ioctl handler answers as the kernel does")
struct MockEvdevIoctlHandlerTests {
    let handler = MockEvdevIoctlHandler(device: .dualSenseMotion())

    func request(_ number: UInt8, size: Int, direction: UInt = 2) -> EvdevIoctlRequest {
        .make(direction: direction, number: number, size: size)
    }

    @Test("EVIOCGNAME copies the name and its NUL, cut at the buffer size, and returns the bytes copied")
    func nameIsCut() {
        let full = handler.answer(request(0x06, size: 255), client: 1)
        let name = "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors"
        #expect(full.result == name.utf8.count + 1)
        #expect(full.output == Array(name.utf8) + [0])
        let cut = handler.answer(request(0x06, size: 4), client: 1)
        #expect(cut.result == 4)
        #expect(cut.output == Array("Sony".utf8))
    }

    @Test("a device without phys answers EVIOCGPHYS with ENOENT, as uinput devices do")
    func missingPhys() {
        var device = MockEvdevDevice.dualSenseMotion()
        device.phys = nil
        let answer = MockEvdevIoctlHandler(device: device).answer(request(0x07, size: 255), client: 1)
        #expect(answer == .failure(ENOENT))
    }

    @Test("EVIOCGBIT(EV_ABS) has bits 0–5 and EVIOCGBIT(0) has EV_SYN, EV_ABS and EV_MSC")
    func bits() {
        let abs = handler.answer(request(0x20 + UInt8(LinuxInput.EV_ABS), size: 8), client: 1)
        #expect(abs.result == 8)
        #expect(abs.output == [0x3f, 0, 0, 0, 0, 0, 0, 0])
        let types = handler.answer(request(0x20, size: 8), client: 1)
        #expect(types.output == [0x19, 0, 0, 0, 0, 0, 0, 0])
        let keys = handler.answer(request(0x20 + UInt8(LinuxInput.EV_KEY), size: 96), client: 1)
        #expect(keys.result == 96)
        #expect(keys.output == [UInt8](repeating: 0, count: 96))
        #expect(handler.answer(request(0x20 + UInt8(LinuxInput.EV_REP), size: 8), client: 1) == .failure(EINVAL))
    }

    @Test("EVIOCGPROP has INPUT_PROP_ACCELEROMETER (bit 6)")
    func properties() {
        #expect(handler.answer(request(0x09, size: 8), client: 1).output == [0x40, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("EVIOCGABS answers the description's absinfo with the last value the device sent")
    func absInfoFollowsEvents() {
        let before = handler.answer(request(0x40 + UInt8(LinuxInput.ABS_RX), size: 24), client: 1)
        #expect(before.output == MockAbsInfo(minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, flat: 0, resolution: 1024).bytes)
        handler.record([.abs(LinuxInput.ABS_RX, -1024, at: 0), .synReport(at: 0)])
        let after = handler.answer(request(0x40 + UInt8(LinuxInput.ABS_RX), size: 24), client: 1)
        #expect(after.output == MockAbsInfo(value: -1024, minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, flat: 0,
                                            resolution: 1024).bytes)
        #expect(handler.absValue(LinuxInput.ABS_RX) == -1024)
    }

    @Test("EVIOCGKEY reports the keys held down")
    func keysHeld() {
        let pad = MockEvdevIoctlHandler(device: .dualSenseGamepad())
        pad.record([.key(LinuxInput.BTN_SOUTH, 1, at: 0)])
        let held = pad.answer(request(0x18, size: 96), client: 1).output ?? []
        let bit = Int(LinuxInput.BTN_SOUTH)
        #expect(held.count == 96 && held[bit / 8] == 1 << (bit % 8))
        pad.record([.key(LinuxInput.BTN_SOUTH, 0, at: 0)])
        #expect(pad.answer(request(0x18, size: 96), client: 1).output == [UInt8](repeating: 0, count: 96))
    }

    @Test("one open file grabs; another gets EBUSY; only the holder may ungrab")
    func grab() {
        let grab = request(0x90, size: 4, direction: 1)
        #expect(handler.answer(grab, argument: 1, client: 1) == .success())
        #expect(handler.answer(grab, argument: 1, client: 2) == .failure(EBUSY))
        #expect(handler.answer(grab, argument: 0, client: 2) == .failure(EINVAL))
        #expect(handler.answer(grab, argument: 0, client: 1) == .success())
        #expect(!handler.isGrabbed)
    }

    @Test("EVIOCSCLOCKID takes MONOTONIC, REALTIME, BOOTTIME and refuses others with EINVAL")
    func clock() {
        let set = request(0xa0, size: 4, direction: 1)
        func bytes(_ v: Int32) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }
        #expect(handler.answer(set, input: bytes(CLOCK_MONOTONIC), client: 1) == .success())
        #expect(handler.answer(set, input: bytes(CLOCK_PROCESS_CPUTIME_ID), client: 2) == .failure(EINVAL))
        #expect(handler.clockIDs == [CLOCK_MONOTONIC])
    }

    @Test("after unplug every ioctl and read fails with ENODEV")
    func unplugged() {
        handler.unplug()
        #expect(handler.answer(request(0x01, size: 4), client: 1) == .failure(ENODEV))
        #expect(handler.readError(client: 1) == ENODEV)
    }

    @Test("requests it does not know are EINVAL and listed as unanswered")
    func unknown() {
        let mask = request(0x92, size: 16)
        #expect(handler.answer(mask, client: 1) == .failure(EINVAL))
        #expect(handler.unansweredRequests == [mask])
        #expect(handler.answer(EvdevIoctlRequest(0x5401), client: 1) == .failure(ENOTTY))
    }
}
