// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Dispatch
import Synchronization
import Evdev
import MockDevices
import LibC
import SystemCalls

/// Unplugging: the kernel's evdev fails every read and ioctl of a removed
/// device with ENODEV and wakes its readers; the mock does the same
/// (`Testbed.unplug`), and removes the sysfs devices and the node.
extension EvdevMockSuites {
    @Suite("Unplugging a device mid-stream", .enabled(if: UmockdevPreload.isActive))
    struct Unplug {
        let motion = MockEvdevDevice.dualSenseMotion()

        /// Checks an error is ENODEV on the motion node and says the device is gone.
        static func isGone(_ error: any Error) -> Bool {
            guard let e = error as? EvdevError else { return false }
            return e.isDeviceGone && e.path == "/dev/input/event0" && e.description.contains("the device is gone")
        }

        @Test("a reader waiting in poll on its own thread wakes, keeps what it read, and stops with ENODEV")
        func readerThreadStops() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try node.setClock(.monotonic)
                let read = Mutex<[EvdevEvent]>([])
                let failure = Mutex<EvdevError?>(nil)
                let finished = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    var buffer = [EvdevEvent](repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0), count: 16)
                    do {
                        while true {
                            _ = try node.waitForEvents(timeoutMilliseconds: -1)
                            let result = try buffer.withUnsafeMutableBufferPointer { try node.readEvents(into: $0) }
                            read.withLock { $0 += buffer[..<result.count] }
                        }
                    } catch {
                        failure.withLock { $0 = error as? EvdevError }
                    }
                    finished.signal()
                }
                let frames = MockDeviceFrames.dualSense((1, 2, 8192), (3, 4, 5), device: 100, at: 7_000_000_000)
                    + MockDeviceFrames.dualSense((6, 7, 8190), (8, 9, 10), device: 4100, at: 7_004_000_000)
                try testbed.writeEvents(frames, to: motion.devicePath, waitUntilQueued: false)
                for _ in 0..<20_000 where read.withLock({ $0.count }) < frames.count { usleep(1000) }
                try testbed.unplug(motion)
                // The thread must end by itself; the timeout only keeps a broken build from hanging the run.
                #expect(finished.wait(timeout: .now() + .seconds(20)) == .success, "the reader did not wake up")
                #expect(read.withLock { $0 } == expected(frames))
                let error = try #require(failure.withLock { $0 })
                #expect(Unplug.isGone(error), "\(error)")
            }
        }

        /// The next read of `node` fails with ENODEV, saying the device is gone.
        static func expectReadFailsGone(_ node: EvdevDevice, sourceLocation: SourceLocation = #_sourceLocation) {
            var buffer = [EvdevEvent](repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0), count: 16)
            #expect(sourceLocation: sourceLocation) {
                _ = try buffer.withUnsafeMutableBufferPointer { try node.readEvents(into: $0) }
            } throws: { isGone($0) }
        }

        @Test("events still queued when the device goes are lost, and the read fails with ENODEV")
        func unreadEventsAreLost() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try testbed.writeEvents(MockDeviceFrames.dualSense((1, 2, 3), (4, 5, 6), device: 1, at: 1_000_000_000),
                                        to: motion.devicePath)
                try testbed.unplug(motion)
                let readable = try node.waitForEvents(timeoutMilliseconds: 2000)
                #expect(readable)
                Unplug.expectReadFailsGone(node)
            }
        }

        /// Found on a loaded machine: a read that had passed the mock's
        /// check when the device went took the byte the mock then wrote to
        /// wake pollers, and libevdev failed it with EINVAL.
        @Test("a read under way when the device goes ends in ENODEV, never in part of an input_event")
        func readUnderWay() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try testbed.writeEvents(MockDeviceFrames.dualSense((1, 2, 3), (4, 5, 6), device: 1, at: 1_000_000_000),
                                        to: motion.devicePath)
                try testbed.unplugDuringNextRead(motion)
                Unplug.expectReadFailsGone(node)
            }
        }

        @Test("ioctls on the unplugged node fail with ENODEV: setClock, grab")
        func ioctlsFail() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try testbed.unplug(motion)
                #expect { try node.setClock(.monotonic) } throws: { Unplug.isGone($0) }
                #expect { try node.grab() } throws: { Unplug.isGone($0) }
            }
        }

        @Test("after unplugging, the node and its sysfs devices are gone: opening fails with ENOENT naming the node")
        func nodeIsGone() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, _, _ in
                try testbed.unplug(motion)
                #expect(testbed.readFile("/sys/class/input/event0/dev") == nil)
                #expect(testbed.readFile("\(motion.sysfsInputPath)/name") == nil)
                #expect { _ = try EvdevDevice(path: motion.devicePath) } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.errno == ENOENT && e.path == "/dev/input/event0" && e.description.contains("is the device connected?")
                }
            }
        }

        @Test("a device plugged back in (a new testbed node) opens and reads again")
        func pluggedBackIn() throws {
            try EvdevMockSuites.withOpenNode(motion) { testbed, node, _ in
                try testbed.unplug(motion)
                Unplug.expectReadFailsGone(node)
                let again = MockEvdevDevice.dualSenseMotion(eventNumber: 3)
                try testbed.add(again)
                let reopened = try EvdevDevice(path: again.devicePath)
                #expect(reopened.uniq == node.uniq)
                let frame = MockDeviceFrames.dualSense((9, 9, 9), (9, 9, 9), device: 9, at: 9_000_000_000)
                try testbed.writeEvents(frame, to: again.devicePath)
                #expect(try reopened.readBack().events == expected(frame))
            }
        }
    }
}

@Suite("Unplug mock tests, run under umockdev-wrapper")
struct UnplugUnderPreload {
    @Test("the unplug mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("Unplug")
    }
}
