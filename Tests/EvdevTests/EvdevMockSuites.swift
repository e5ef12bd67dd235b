// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Evdev
import MockDevices
import LibC

/// Every suite that makes a umockdev testbed is nested here: a testbed sets
/// `UMOCKDEV_DIR` for the whole process, so they must never run at the same
/// time. `.serialized` on this parent serializes all nested suites and tests.
///
/// Each nested suite runs only under the preload (`umockdev-wrapper`); beside
/// it, a small suite re-runs this binary under the wrapper for that suite, so
/// a plain `swift test` covers it too.
@Suite("Mock evdev devices (umockdev)", .serialized)
enum EvdevMockSuites {
    /// Makes a testbed with `devices` (each with its ioctl handler) and runs
    /// `body`; the testbed outlives the body.
    @discardableResult
    static func withTestbed<T>(_ devices: [MockEvdevDevice], _ body: (Testbed) throws -> T) throws -> T {
        let testbed = Testbed()
        return try withExtendedLifetime(testbed) {
            for device in devices { try testbed.add(device) }
            return try body(testbed)
        }
    }

    /// Makes a testbed with `device`, opens its node with `EvdevDevice`, and
    /// runs `body` with both and the node's ioctl handler.
    @discardableResult
    static func withOpenNode<T>(_ device: MockEvdevDevice, others: [MockEvdevDevice] = [],
                                _ body: (Testbed, EvdevDevice, MockEvdevIoctlHandler) throws -> T) throws -> T {
        try withTestbed([device] + others) { testbed in
            let node = try EvdevDevice(path: device.devicePath)
            let handler = try #require(testbed.evdevHandler(for: device.devicePath))
            return try body(testbed, node, handler)
        }
    }

    /// Re-runs one nested suite (by its type name) under umockdev-wrapper
    /// and records, naming them, the child tests that did not pass (a
    /// skipped child fails too: it checked nothing).
    static func expectPassesUnderPreload(_ suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try UmockdevPreload.rerun(suite: "EvdevTests.EvdevMockSuites/\(suite)/")
        #expect(run.passed, "\(run)", sourceLocation: sourceLocation)
    }
}

/// Events read from a node and how each batch came back.
struct ReadBack {
    var events: [EvdevEvent] = []
    var results: [EvdevReadResult] = []
}

extension EvdevDevice {
    /// Reads until `count` events have come, `.wouldBlock` comes after at
    /// least `count` (when `count` is nil: until the first `.wouldBlock`
    /// once something was read), or `timeoutMilliseconds` pass; batches of
    /// at most `batch` events.
    func readBack(count: Int? = nil, batch: Int = 64, timeoutMilliseconds: Int32 = 2000) throws -> ReadBack {
        var back = ReadBack()
        var buffer = [EvdevEvent](repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0), count: batch)
        var waited: Int32 = 0
        while waited < timeoutMilliseconds {
            let result = try buffer.withUnsafeMutableBufferPointer { try readEvents(into: $0) }
            if result == .wouldBlock {
                if let count, back.events.count >= count { break }
                if count == nil && !back.results.isEmpty { break }
                if try !waitForEvents(timeoutMilliseconds: 10) { waited += 10 }
                continue
            }
            back.results.append(result)
            back.events += buffer[..<result.count]
        }
        return back
    }
}
