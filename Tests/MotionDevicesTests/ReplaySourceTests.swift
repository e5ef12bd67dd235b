// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionCore
import MotionDevices
import SystemCalls
import TestSupport
import Handoff

@Suite("Replay source and recording writer")
struct ReplaySourceTests {
    func recording(_ count: Int, spacing: Int64) -> Recording {
        Recording(header: RecordingHeader(device: "test", identity: nil, rate: 1e9 / Double(spacing), hasGyroscope: false),
                  samples: (0..<count).map {
                      MotionSample(timestamp: 77_000_000_000 + Int64($0) * spacing, acceleration: Vector3(Double($0), 0, 9.8),
                                   fields: .acceleration)
                  })
    }

    @Test("samples arrive in order with the recorded spacing, stamped on today's clock; the end is an interruption")
    func paced() throws {
        let source = ReplaySource(recording: recording(20, spacing: 10_000_000), path: "r.tmr")
        let before = MonotonicClock.now()
        try source.start()
        defer { source.stop() }
        var got: [MotionSample] = []
        #expect(eventually { source.samples.drain { got.append($0) }; return got.count == 20 })
        #expect(got.map(\.acceleration.x) == (0..<20).map(Double.init))
        #expect(got[0].timestamp >= before)
        #expect(zip(got, got.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 10_000_000 })
        #expect(eventually { source.interruption == "the recording r.tmr has ended: q quits" })
        #expect(source.calibrationIdentity == nil)
    }

    @Test("a replay of a recording with a magnetometer is recorded again with it, its scale unknown or not")
    func magnetometerKept() {
        var nine = recording(3, spacing: 10_000_000)
        nine.header.hasMagnetometer = true
        let again = RecordingHeader(recording: ReplaySource(recording: nine, path: "r.csv"))
        #expect(again.hasMagnetometer && again.version == 2 && again.magnetometerScale == nil)
        nine.header.magnetometerScale = 0.014
        #expect(RecordingHeader(recording: ReplaySource(recording: nine, path: "r.tmr")).magnetometerScale == 0.014)
        #expect(RecordingHeader(recording: ReplaySource(recording: recording(3, spacing: 10_000_000), path: "r.tmr")).version == 1)
    }

    @Test("stop does not wait for a long gap in the recording")
    func promptStop() throws {
        let source = ReplaySource(recording: recording(2, spacing: 3_600_000_000_000), path: "r.tmr")
        try source.start()
        #expect(eventually { source.samples.count == 1 })
        #expect(returns { source.stop() })
        #expect(source.interruption == nil)
    }

    @Test("a recording is written under a temporary name and renamed by finish; abandon leaves the target as it was")
    func writer() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/r.tmr"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let rec = recording(3000, spacing: 1_000_000)
        let abandoned = try RecordingWriter(path: path, header: rec.header)
        for s in rec.samples { try abandoned.append(s) }
        #expect(dir.names().count == 2)   // the target and the temporary file
        abandoned.abandon()
        #expect(dir.names() == ["r.tmr"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")

        let writer = try RecordingWriter(path: path, header: rec.header)
        for s in rec.samples { try writer.append(s) }
        try writer.finish()
        #expect(dir.names() == ["r.tmr"])
        let back = try RecordingFile.load(path)
        #expect(back.samples == rec.samples && back.header == rec.header)
    }
}
