// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MockDevices

/// The mock's ioctl decoding, checked against request numbers worked out
/// by hand from `_IOC(dir, 'E', nr, size)` (the EVIOC* macros are not
/// importable into Swift).
@Suite("Evdev ioctl requests are taken apart as the kernel does")
struct EvdevIoctlRequestTests {
    @Test("EVIOCGNAME(255) is a 255-byte read, number 0x06")
    func name() {
        let r = EvdevIoctlRequest(0x80FF_4506)
        #expect(r.direction == 2)
        #expect(r.size == 255)
        #expect(r.type == 0x45)
        #expect(r.number == 0x06)
        #expect(r.isEvdev)
        #expect(r.name == "EVIOCGNAME(255)")
    }

    @Test("EVIOCGBIT(EV_KEY, 96), EVIOCGABS(ABS_RX) and EVIOCSCLOCKID are named with their arguments")
    func names() {
        #expect(EvdevIoctlRequest(0x8060_4521).name == "EVIOCGBIT(EV_KEY, 96)")
        #expect(EvdevIoctlRequest(0x8018_4543).name == "EVIOCGABS(ABS_RX)")
        #expect(EvdevIoctlRequest(0x4004_45A0).name == "EVIOCSCLOCKID")
        #expect(EvdevIoctlRequest(0x4004_4590).name == "EVIOCGRAB")
        #expect(EvdevIoctlRequest(0x8008_4502).name == "EVIOCGID")
    }

    @Test("make builds the same numbers")
    func make() {
        #expect(EvdevIoctlRequest.make(direction: 2, number: 0x06, size: 255) == EvdevIoctlRequest(0x80FF_4506))
        #expect(EvdevIoctlRequest.make(direction: 1, number: 0xA0, size: 4) == EvdevIoctlRequest(0x4004_45A0))
    }

    @Test("a request of another type is not evdev's")
    func notEvdev() {
        let tcgets = EvdevIoctlRequest(0x5401)
        #expect(!tcgets.isEvdev)
        #expect(tcgets.name.contains("not evdev"))
    }
}
