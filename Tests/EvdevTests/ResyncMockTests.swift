// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Evdev
import MockDevices
import LibC

/// SYN_DROPPED: the kernel's queue for a reader overflowed, it threw the
/// queue away and put SYN_DROPPED in its place. The mock writes SYN_DROPPED
/// into the stream where the kernel would, followed by events the reader
/// never gets (libevdev drains them), while the ioctl handler keeps the
/// device's true state, which the resync reads with EVIOCGABS/EVIOCGKEY.
extension EvdevMockSuites {
    @Suite("SYN_DROPPED and resynchronisation", .enabled(if: UmockdevPreload.isActive))
    struct Resync {
        let motion = MockEvdevDevice.dualSenseMotion()

        /// Frame A; then the start of frame B (ABS_X only); SYN_DROPPED; frames C
        /// and D, which the drop swallows. The device ends at X 310, Y 400,
        /// Z 8000, RX 10, RY 26, RZ 30.
        func droppedStream() -> (before: [MockInputEvent], dropped: MockInputEvent, lost: [MockInputEvent]) {
            let before = MockDeviceFrames.dualSense((100, 200, 8192), (10, 20, 30), device: 1000, at: 1_000_000_000)
                + [.abs(LinuxInput.ABS_X, 150, at: 1_004_000_000)]
            let dropped = MockInputEvent.synDropped(at: 1_004_500_000)
            let lost = MockDeviceFrames.dualSense((300, 400, 8000), (10, 25, 30), device: 9000, at: 1_008_000_000)
                + MockDeviceFrames.dualSense((310, 400, 8000), (10, 26, 30), device: 13000, at: 1_012_000_000)
            return (before, dropped, lost)
        }

        @Test("a drop mid-stream: the events before it, then .resynced with the changed axes and a SYN_REPORT at the drop's time")
        func dropMidStream() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                let (before, dropped, lost) = droppedStream()
                try testbed.writeEvents(before + [dropped] + lost, to: motion.devicePath)
                let back = try node.readBack()
                let t = dropped.nanoseconds
                let restated = [
                    EvdevEvent(type: .abs, code: EvdevCode.absX, value: 310, time: t),
                    EvdevEvent(type: .abs, code: EvdevCode.absY, value: 400, time: t),
                    EvdevEvent(type: .abs, code: EvdevCode.absZ, value: 8000, time: t),
                    EvdevEvent(type: .abs, code: EvdevCode.absRY, value: 26, time: t),
                    EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: t),
                ]
                #expect(back.results == [.events(before.count), .resynced(restated.count)])
                #expect(back.events == expected(before) + restated)
                // libevdev's view now matches the device.
                #expect(node.currentValue(type: .abs, code: EvdevCode.absX) == 310)
                #expect(node.currentValue(type: .abs, code: EvdevCode.absRY) == 26)
                #expect(node.absInfo(EvdevCode.absZ)?.value == 8000)
            }
        }

        @Test("the resync asks the kernel for every axis with EVIOCGABS, and the mock answers")
        func resyncRequests() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, handler in
                let opened = handler.requestLog.count
                let (before, dropped, lost) = droppedStream()
                try testbed.writeEvents(before + [dropped] + lost, to: motion.devicePath)
                _ = try node.readBack()
                let asked = handler.requestLog.dropFirst(opened).map(\.request.name)
                #expect(asked == ["EVIOCGABS(ABS_X)", "EVIOCGABS(ABS_Y)", "EVIOCGABS(ABS_Z)", "EVIOCGABS(ABS_RX)",
                                  "EVIOCGABS(ABS_RY)", "EVIOCGABS(ABS_RZ)"])
                #expect(handler.unansweredRequests.isEmpty)
            }
        }

        @Test("a drop at the start of a read comes back as .resynced at once")
        func dropFirst() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                let frameA = MockDeviceFrames.dualSense((100, 200, 8192), (10, 20, 30), device: 1000, at: 1_000_000_000)
                try testbed.writeEvents(frameA, to: motion.devicePath)
                let first = try node.readBack()
                #expect(first.events == expected(frameA))
                let dropped = MockInputEvent.synDropped(at: 1_010_000_000)
                let lost = MockDeviceFrames.dualSense((100, 200, 8100), (10, 20, 30), device: 11000, at: 1_011_000_000)
                try testbed.writeEvents([dropped] + lost, to: motion.devicePath)
                let back = try node.readBack()
                #expect(back.results == [.resynced(2)])
                #expect(back.events == [EvdevEvent(type: .abs, code: EvdevCode.absZ, value: 8100, time: dropped.nanoseconds),
                                        EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: dropped.nanoseconds)])
            }
        }

        @Test("a drop after which nothing changed resyncs with no events")
        func dropWithoutChange() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                let frameA = MockDeviceFrames.dualSense((100, 200, 8192), (10, 20, 30), device: 1000, at: 1_000_000_000)
                let same = MockDeviceFrames.dualSense((100, 200, 8192), (10, 20, 30), device: 5000, at: 1_004_000_000)
                try testbed.writeEvents(frameA + [.synDropped(at: 1_002_000_000)] + same, to: motion.devicePath)
                let back = try node.readBack()
                #expect(back.results == [.events(frameA.count), .resynced(0)])
                #expect(back.events == expected(frameA))
            }
        }

        @Test("a resync longer than the buffer goes on in the next read as plain events, in order")
        func resyncAcrossReads() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                let (before, dropped, lost) = droppedStream()
                try testbed.writeEvents(before + [dropped] + lost, to: motion.devicePath)
                let back = try node.readBack(batch: 2)
                #expect(back.results == [.events(2), .events(2), .events(2), .events(2), .events(1),
                                         .resynced(2), .events(2), .events(1)])
                #expect(back.events.count == before.count + 5)
                #expect(back.events.suffix(5).map(\.value) == [310, 400, 8000, 26, 0])
            }
        }

        @Test("events sent after the resync read normally, with their own times")
        func afterResync() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                let (before, dropped, lost) = droppedStream()
                try testbed.writeEvents(before + [dropped] + lost, to: motion.devicePath)
                _ = try node.readBack()
                let next = MockDeviceFrames.dualSense((311, 401, 8001), (11, 27, 31), device: 17000, at: 1_016_000_000)
                try testbed.writeEvents(next, to: motion.devicePath)
                let back = try node.readBack()
                #expect(back.results == [.events(next.count)])
                #expect(back.events == expected(next))
            }
        }

        @Test("a button pressed while events were dropped is restated as held (EVIOCGKEY)")
        func keyHeldAcrossDrop() throws {
            let pad = MockEvdevDevice.dualSenseGamepad(eventNumber: 0)
            try EvdevMockSuites.withOpenNode(pad) { testbed, node, handler in
                let opened = handler.requestLog.count
                let dropped = MockInputEvent.synDropped(at: 3_000_000_000)
                try testbed.writeEvents([dropped, .key(LinuxInput.BTN_SOUTH, 1, at: 3_001_000_000), .synReport(at: 3_001_000_000)],
                                        to: pad.devicePath)
                let back = try node.readBack()
                #expect(back.results == [.resynced(2)])
                #expect(back.events == [EvdevEvent(type: .key, code: EvdevCode.buttonSouth, value: 1, time: dropped.nanoseconds),
                                        EvdevEvent(type: .syn, code: EvdevCode.synReport, value: 0, time: dropped.nanoseconds)])
                #expect(node.currentValue(type: .key, code: EvdevCode.buttonSouth) == 1)
                let asked = handler.requestLog.dropFirst(opened).map(\.request.name)
                #expect(asked.first == "EVIOCGKEY(96)")
                #expect(handler.unansweredRequests.isEmpty)
            }
        }
    }
}

@Suite("Resync mock tests, run under umockdev-wrapper")
struct ResyncUnderPreload {
    @Test("the SYN_DROPPED mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("Resync")
    }
}
