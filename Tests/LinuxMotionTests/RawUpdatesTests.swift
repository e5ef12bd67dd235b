// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization
import Testing
import LinuxMotion
import MotionCore
import MotionDevices
import TestSupport

@Suite("LinuxMotion: raw readings and shakes")
struct RawUpdatesTests {
    static func replay(_ recording: Recording) -> MotionManager {
        MotionManager(source: ReplaySource(recording: recording, path: "memory", ringCapacity: 1024),
                      description: "recording", calibrationStore: nil)
    }

    @Test("accelerometer updates are the sensor's readings, every one, in order")
    func accelerometer() async throws {
        let recording = MotionManagerTests.recording(count: 300)
        let manager = Self.replay(recording)
        var got: [AccelerometerData] = []
        for try await reading in try manager.accelerometerUpdates(bufferLimit: 1_000) { got.append(reading) }
        manager.stop()
        #expect(got.map(\.acceleration) == recording.samples.map(\.acceleration))
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test("gyro updates are the raw rates, bias and all, through the callback")
    func gyro() throws {
        let recording = MotionManagerTests.recording(count: 300)
        let manager = Self.replay(recording)
        let got = Mutex<[GyroData]>([])
        let ended = Atomic<Bool>(false)
        try manager.startGyroUpdates(handler: { reading in got.withLock { $0.append(reading) } },
                                     completion: { _ in ended.store(true, ordering: .relaxed) })
        defer { manager.stop() }
        #expect(eventually { ended.load(ordering: .relaxed) })
        #expect(got.withLock { $0.map(\.rotationRate) } == recording.samples.map(\.rotationRate))
    }

    @Test("a sensor without a gyroscope refuses gyro updates, naming itself")
    func noGyroscope() throws {
        var recording = MotionManagerTests.recording(count: 50)
        recording.header.hasGyroscope = false
        recording.samples = recording.samples.map { var s = $0; s.fields = [.acceleration]; return s }
        let manager = Self.replay(recording)
        do {
            try manager.startGyroUpdates { _ in }
            Issue.record("gyro updates started on an accelerometer")
        } catch {
            #expect(error.description.contains("recording has no gyroscope"), "\(error)")
        }
        #expect(!manager.isActive)
        // The same manager still gives what the sensor has.
        try manager.startAccelerometerUpdates { _ in }
        manager.stop()
    }

    @Test("shake updates carry the push, as the device motion marks it")
    func shakes() async throws {
        let recording = MotionManagerTests.recording(count: 500)
        let want = MotionManagerTests.expected(recording).compactMap(\.shake)
        #expect(!want.isEmpty)
        let manager = Self.replay(recording)
        var got: [Shake] = []
        for try await shake in try manager.shakeUpdates() { got.append(shake) }
        manager.stop()
        #expect(got.map(\.axis) == want.map(\.axis))
        #expect(got.map(\.positive) == want.map(\.positive))
        #expect(got.map(\.acceleration) == want.map(\.acceleration))
    }

    @Test("updates that ended by themselves may be started again on the same manager")
    func restartAfterEnd() async throws {
        let manager = Self.replay(MotionManagerTests.recording(count: 40))
        var first = 0
        for try await _ in try manager.deviceMotionUpdates(bufferLimit: 100) { first += 1 }
        var second = 0
        for try await _ in try manager.accelerometerUpdates(bufferLimit: 100) { second += 1 }
        manager.stop()
        #expect(first == 40)
        #expect(second == 40)
    }
}
