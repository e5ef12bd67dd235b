// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Evdev
import MockDevices
import LibC
import SystemCalls

extension EvdevMockSuites {
    @Suite("Faults: permissions, missing nodes, nodes that are not evdev", .enabled(if: UmockdevPreload.isActive))
    struct Faults {
        @Test("a node this user may not open fails with EACCES naming the node (the wrapper says nothing of udev rules)")
        func permissionDenied() throws {
            let motion = MockEvdevDevice.dualSenseMotion()
            try EvdevMockSuites.withTestbed([motion]) { testbed in
                try testbed.setPermissions(motion.devicePath, 0o000)
                try UnprivilegedFileAccess.run(in: testbed) { () throws in
                    #expect { _ = try EvdevDevice(path: motion.devicePath) } throws: { error in
                        guard let e = error as? EvdevError else { return false }
                        return e.errno == EACCES && e.path == "/dev/input/event0" && e.operation == "open"
                            && e.description.hasPrefix("/dev/input/event0: cannot open")
                            && !e.description.contains("udev")
                    }
                }
                // Given access again (as the udev rules do), the same node opens.
                try testbed.setPermissions(motion.devicePath, 0o660)
                #expect(try EvdevDevice(path: motion.devicePath).isMotionSensor)
            }
        }

        @Test("a missing node fails with ENOENT naming it")
        func missingNode() throws {
            try EvdevMockSuites.withTestbed([.dualSenseMotion()]) { _ in
                #expect { _ = try EvdevDevice(path: "/dev/input/event7") } throws: { error in
                    guard let e = error as? EvdevError else { return false }
                    return e.errno == ENOENT && e.path == "/dev/input/event7" && e.description.contains("/dev/input/event7")
                }
            }
        }
    }
}

@Suite("Fault mock tests, run under umockdev-wrapper")
struct EvdevFaultsUnderPreload {
    @Test("the evdev fault mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try EvdevMockSuites.expectPassesUnderPreload("Faults")
    }
}

/// Files that are not input nodes, on the real system (no testbed: inside
/// one, umockdev answers every ioctl of a node itself).
@Suite("Opening what is not an evdev node")
struct NotAnInputNodeTests {
    @Test("a regular file is refused with ENOTTY as not an input node, naming it",
          .disabled(if: Emulation.isQemuUser, Comment(rawValue: Emulation.unknownIoctl)))
    func regularFile() throws {
        var template = Array("/tmp/tiltmaze-not-evdev-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path); close(fd) }
        var record = [UInt8](repeating: 0, count: 48)
        _ = write(fd, &record, record.count)
        #expect { _ = try EvdevDevice(path: path) } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.errno == ENOTTY && e.path == path && e.description.contains("not an evdev input node")
        }
    }

    @Test("a directory is refused, naming it")
    func directory() {
        #expect { _ = try EvdevDevice(path: "/tmp") } throws: { error in
            guard let e = error as? EvdevError else { return false }
            return e.path == "/tmp" && e.description.hasPrefix("/tmp: cannot")
        }
    }
}
