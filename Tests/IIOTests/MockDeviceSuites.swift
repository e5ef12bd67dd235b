// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices

/// Every suite that makes a umockdev testbed is nested here: a testbed sets
/// `UMOCKDEV_DIR` for the whole process, so they must never run at the same
/// time. `.serialized` on this parent serializes all nested suites and tests.
///
/// Each nested suite runs only under the preload (`umockdev-wrapper`); beside
/// it, a small suite re-runs this binary under the wrapper for that suite, so
/// a plain `swift test` covers it too.
@Suite("Mock IIO devices (umockdev)", .serialized)
enum MockDeviceSuites {
    /// Makes a testbed with `devices`, opens a local context on it, and runs
    /// `body`; the testbed outlives the context and the body.
    static func withContext<T>(_ devices: [MockIIODevice], triggers: [MockIIOTrigger] = [],
                               _ body: (Testbed, IIOContext) throws -> T) throws -> T {
        let testbed = Testbed()
        return try withExtendedLifetime(testbed) {
            for device in devices { try testbed.add(device) }
            for trigger in triggers { try testbed.add(trigger) }
            let context = try IIOContext()
            return try body(testbed, context)
        }
    }

    /// Re-runs one nested suite (by its type name) under umockdev-wrapper
    /// and records, naming them, the child tests that did not pass (a
    /// skipped child fails too: it checked nothing).
    static func expectPassesUnderPreload(_ suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try UmockdevPreload.rerun(suite: "IIOTests.MockDeviceSuites/\(suite)/")
        #expect(run.passed, "\(run)", sourceLocation: sourceLocation)
    }
}

extension IIODevice {
    /// The device's channel with this id, or a test failure.
    func requireChannel(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> IIOChannel {
        try #require(channel(id: id), "\(self) has no channel \(id)", sourceLocation: sourceLocation)
    }
}

extension IIOContext {
    /// The device with this name, or a test failure.
    func requireDevice(named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> IIODevice {
        try #require(device(named: name), "no device named \(name)", sourceLocation: sourceLocation)
    }
}
