// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionCore
import MotionDevices

@Suite("Evdev discovery from sysfs")
struct SensorDiscoveryTests {
    /// A fake /sys/class/input with the given nodes: (event number, name, uniq, properties bitmap).
    func fakeSysfs(_ nodes: [(Int, String, String, String)]) throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-sysfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for (n, name, uniq, properties) in nodes {
            let device = "\(root)/class/input/event\(n)/device"
            try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
            try "\(name)\n".write(toFile: device + "/name", atomically: true, encoding: .utf8)
            try "\(uniq)\n".write(toFile: device + "/uniq", atomically: true, encoding: .utf8)
            try "\(properties)\n".write(toFile: device + "/properties", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "\(root)/class/input/mice", withIntermediateDirectories: true)
        return root
    }

    @Test("motion nodes are the ones with INPUT_PROP_ACCELEROMETER, paired with their gamepad by uniq")
    func pairsByUniq() throws {
        let root = try fakeSysfs([
            (12, "DualSense Wireless Controller Motion Sensors", "aa:bb:cc:dd:ee:ff", "40"),
            (3, "AT Translated Set 2 keyboard", "", "0"),
            (11, "DualSense Wireless Controller", "aa:bb:cc:dd:ee:ff", "0"),
            (20, "Accel Only", "", "0 40"),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let nodes = SensorDiscovery.inputNodes(sysfs: root)
        #expect(nodes.map(\.path) == ["/dev/input/event3", "/dev/input/event11", "/dev/input/event12", "/dev/input/event20"])
        let sensors = SensorDiscovery.evdevSensors(sysfs: root)
        #expect(sensors.map(\.motion.path) == ["/dev/input/event12", "/dev/input/event20"])
        #expect(sensors[0].gamepad?.path == "/dev/input/event11")
        #expect(sensors[1].gamepad == nil)
    }

    @Test("no input class at all: nothing found")
    func noInputClass() {
        #expect(SensorDiscovery.evdevSensors(sysfs: "/nonexistent").isEmpty)
    }
}
