// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import LibC
import SystemCalls

@Suite("Evdev values: names, times, errors")
struct EvdevValueTests {
    @Test("event types and codes have the kernel's names")
    func names() {
        #expect(EvdevEventType.abs.description == "EV_ABS")
        #expect(EvdevEventType.msc.description == "EV_MSC")
        #expect(EvdevCode.name(type: .abs, code: EvdevCode.absRX) == "ABS_RX")
        #expect(EvdevCode.name(type: .msc, code: EvdevCode.mscTimestamp) == "MSC_TIMESTAMP")
        #expect(EvdevCode.name(type: .key, code: EvdevCode.buttonSouth) == "BTN_SOUTH")
        #expect(EvdevCode.name(type: .syn, code: EvdevCode.synDropped) == "SYN_DROPPED")
        #expect(EvdevEventType.abs.maximumCode == 0x3f)
    }

    @Test("an event prints its time to the microsecond, its type, code and value")
    func eventDescription() {
        let e = EvdevEvent(type: .abs, code: EvdevCode.absZ, value: 8192, time: 12_000_500_000)
        #expect(e.description == "12.000500 EV_ABS ABS_Z 8192")
        #expect(!e.isSynReport)
        #expect(EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: 0).isSynReport)
    }

    @Test("a read result says how many events it holds")
    func readResultCount() {
        #expect(EvdevReadResult.events(7).count == 7)
        #expect(EvdevReadResult.resynced(3).count == 3)
        #expect(EvdevReadResult.wouldBlock.count == 0)
    }

    @Test("a gone device says so and tells the user to reconnect it")
    func deviceGone() {
        let e = EvdevError(errno: ENODEV, operation: "read events", path: "/dev/input/event7")
        #expect(e.isDeviceGone)
        #expect(e.description.hasPrefix("/dev/input/event7: cannot read events: "))
        #expect(e.description.contains("the device is gone"))
    }

    @Test("a permission error names the node and says nothing of this program's udev rules")
    func permission() {
        let e = EvdevError(errno: EACCES, operation: "open", path: "/dev/input/event3")
        #expect(!e.isDeviceGone)
        #expect(e.description.contains("/dev/input/event3"))
        #expect(e.isPermissionDenied)
        #expect(!e.description.contains("udev"))
    }

    @Test("a detail replaces the generic hint")
    func detail() {
        let e = EvdevError(errno: EBUSY, operation: "grab it", path: "/dev/input/event1", detail: "another program has grabbed it")
        #expect(e.description.hasSuffix("; another program has grabbed it"))
    }

    @Test("clocks print as their C names")
    func clocks() {
        #expect(EvdevClock.monotonic.rawValue == CLOCK_MONOTONIC)
        #expect(EvdevClock.monotonic.description == "CLOCK_MONOTONIC")
        #expect(EvdevClock(rawValue: 42).description == "clock 42")
    }
}
