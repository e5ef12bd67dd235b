// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Synchronization
import Testing
import LinuxMotion
import MotionCore
import MotionDevices
import TestSupport

@Suite("LinuxMotion: recording a session and replaying it")
struct RecordingTests {
    @Test("what the updates read is recorded, and the replay gives back those readings")
    func recordAndReplay() async throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/session.tmrec"
        let manager = MotionManager(source: .sim, rate: 200, calibrationStore: nil)
        let read = Mutex<[Vector3]>([])
        try manager.startDeviceMotionUpdates { motion in read.withLock { $0.append(motion.acceleration) } }
        defer { manager.stop() }
        try manager.startRecording(to: path)
        #expect(throws: MotionError.alreadyActive) { try manager.startRecording(to: path + ".2") }
        let startedAt = manager.samplesRead
        #expect(eventually { manager.samplesRead >= startedAt + 60 })
        #expect(!FileManager.default.fileExists(atPath: path), "the file appears only when the recording ends")
        let summary = try #require(try manager.stopRecording())
        manager.stop()
        #expect(summary.path == path)
        #expect(summary.samples >= 50)
        #expect(summary.lost == 0)
        #expect(try manager.stopRecording() == nil, "no recording runs any more")

        let recording = try RecordingFile.load(path)
        #expect(recording.samples.count == summary.samples)
        #expect(recording.header.device.contains("simulated"), "\(recording.header.device)")
        #expect(recording.header.hasGyroscope)
        // The recorded readings are a run of what the handler saw, in order.
        let recorded = recording.samples.map(\.acceleration)
        let seen = read.withLock { $0 }
        let first = try #require(seen.firstIndex(of: recorded[0]))
        #expect(Array(seen[first ..< min(first + recorded.count, seen.count)]) == Array(recorded.prefix(seen.count - first)))

        let replay = MotionManager(source: .replay(path), calibrationStore: nil)
        var replayed: [Vector3] = []
        for try await motion in try replay.deviceMotionUpdates(bufferLimit: 10_000) { replayed.append(motion.acceleration) }
        replay.stop()
        #expect(replayed == recorded)
    }

    @Test("recording needs running updates; a file that cannot be made is a typed error naming it, and leaves nothing")
    func errors() throws {
        let dir = TemporaryDirectory()
        let manager = MotionManager(source: .sim, rate: 100, calibrationStore: nil)
        #expect(throws: MotionError.notRecordingWithoutUpdates) { try manager.startRecording(to: dir.path + "/x.tmrec") }
        try manager.startDeviceMotionUpdates { _ in }
        defer { manager.stop() }
        let missing = dir.path + "/no/such/folder/x.tmrec"
        do {
            try manager.startRecording(to: missing)
            Issue.record("a recording started in a folder that does not exist")
        } catch {
            guard case .recordingNotSaved(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains(missing), "\(why)")
        }
        #expect(dir.names().isEmpty)
    }

    @Test("stop() ends a running recording and saves it")
    func stopSaves() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/session.tmrec"
        let manager = MotionManager(source: .sim, rate: 200, calibrationStore: nil)
        try manager.startDeviceMotionUpdates { _ in }
        try manager.startRecording(to: path)
        let startedAt = manager.samplesRead
        #expect(eventually { manager.samplesRead >= startedAt + 20 })
        manager.stop()
        #expect(manager.recordingProblem == nil)
        #expect(try RecordingFile.load(path).samples.count >= 10)
        #expect(dir.names() == ["session.tmrec"], "no temporary file left")
    }
}
