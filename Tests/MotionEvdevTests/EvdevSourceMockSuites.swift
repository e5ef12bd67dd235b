// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Testing
import Evdev
import MockDevices
import MotionCore
import MotionDevices
import Realtime
import TestSupport
import LibC
import Handoff

/// Every suite here that makes a umockdev testbed is nested in this one: a
/// testbed sets `UMOCKDEV_DIR` for the whole process, so they must never run
/// at the same time. `.serialized` on this parent serializes all nested
/// suites and tests.
///
/// Each nested suite runs only under the preload (`umockdev-wrapper`); beside
/// it, a small suite re-runs this binary under the wrapper for that suite, so
/// a plain `swift test` covers it too (see `expectPassesUnderPreload`).
@Suite("Evdev motion source on mock devices (umockdev)", .serialized)
enum EvdevSourceMockSuites {
    /// Makes a testbed with `devices` (each with its ioctl handler) and runs
    /// `body`; the testbed outlives the body.
    static func withTestbed(_ devices: [MockEvdevDevice], _ body: (Testbed) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            for device in devices { try testbed.add(device) }
            try body(testbed)
        }
    }

    /// Re-runs one nested suite (by its type name) under umockdev-wrapper
    /// and records, naming them, the child tests that did not pass.
    static func expectPassesUnderPreload(_ suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try UmockdevPreload.rerun(suite: "MotionEvdevTests.EvdevSourceMockSuites/\(suite)/")
        #expect(run.passed, "\(run)", sourceLocation: sourceLocation)
    }
}

/// Making sources for mock nodes and reading what they produce.
enum SourceUnderTest {
    /// A source for `device`'s node, as the game makes one for a node it
    /// found; `mount` explicit (identity) unless a test is about the mount.
    static func make(_ device: MockEvdevDevice, mount: MountMatrix? = .identity,
                     ringCapacity: Int = defaultSampleRingCapacity, sysfs: String = "/sys",
                     udevDirectory: String = UdevDatabase.defaultDirectory) -> EvdevMotionSource {
        EvdevMotionSource(node: InputNode(path: device.devicePath, name: device.name, uniq: device.uniq, isMotionSensor: true),
                          mount: mount, reconnectInterval: .milliseconds(20), ringCapacity: ringCapacity, sysfs: sysfs,
                          udevDirectory: udevDirectory)
    }

    /// Waits until `count` samples are in the ring (or the hang bound
    /// passes), then a further 50 ms for any that should not be there, and
    /// returns them all, oldest first.
    static func collect(_ source: EvdevMotionSource, count: Int) -> [MotionSample] {
        var got: [MotionSample] = []
        _ = eventually {
            source.samples.drain { got.append($0) }
            return got.count >= count
        }
        sleep(milliseconds: 50)
        source.samples.drain { got.append($0) }
        return got
    }

    /// Whether `condition` came true before the hang bound (`eventually`).
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        eventually(condition)
    }

    static func sleep(milliseconds: Int64) {
        MonotonicClock.sleep(until: MonotonicClock.now() + milliseconds * 1_000_000)
    }
}

/// The SI values a source must produce for raw counts, written with the same
/// operations in the same order as `EvdevSampleAssembler` (so equality is
/// exact): m/s² = counts × (g / units per g), rad/s = counts / units per °/s × π/180.
enum Expected {
    static func acceleration(_ counts: (Int32, Int32, Int32), perG: Int32) -> Vector3 {
        let scale = standardGravity / Double(perG)
        return Vector3(Double(counts.0) * scale, Double(counts.1) * scale, Double(counts.2) * scale)
    }

    static func rotationRate(_ counts: (Int32, Int32, Int32), perDegreePerSecond: Int32) -> Vector3 {
        let r = Double(perDegreePerSecond)
        return Vector3(Double(counts.0) / r * (.pi / 180), Double(counts.1) / r * (.pi / 180),
                       Double(counts.2) / r * (.pi / 180))
    }

    /// A DualSense sample (8192 per g, 1024 per °/s) with both fields.
    static func dualSense(_ accel: (Int32, Int32, Int32), _ gyro: (Int32, Int32, Int32), at time: Int64) -> MotionSample {
        MotionSample(timestamp: time, acceleration: acceleration(accel, perG: 8192),
                     rotationRate: rotationRate(gyro, perDegreePerSecond: 1024), fields: [.acceleration, .rotationRate])
    }
}

/// One frame as hid-playstation sends it: accel, gyro, MSC_TIMESTAMP (device µs), SYN_REPORT, all at `time`.
func dualSenseFrame(_ accel: (Int32, Int32, Int32), _ gyro: (Int32, Int32, Int32), device: UInt32, at time: Int64)
    -> [MockInputEvent] {
    MockInputEvent.motionFrame(accel: accel, gyro: gyro, deviceMicroseconds: device, at: time)
}
