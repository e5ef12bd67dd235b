// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import MotionDevices
import Realtime
import Synchronization
import SystemCalls

/// Writes the samples the update thread reads to a recording, on a thread of
/// its own: the update thread only pushes each sample into a ring (no file
/// I/O, no allocation), and this thread writes them out every 20 ms.
final class SessionRecorder: @unchecked Sendable {
    // @unchecked Sendable: `writer` and `thread` belong to start/stop (the
    // manager's caller) and, between them, to the recorder's thread, as does
    // `problem` (read by stop after joining it); the update thread touches
    // only `ring` (as its producer) and `isOn`.

    /// A second of samples at 1 kHz: the writer's thread may stall that long on a slow card.
    let ring = SPSCRing<MotionSample>(capacity: 1_024)
    let isOn = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private var writer: RecordingWriter?
    private var thread: OSThread?
    private var droppedBefore = 0
    /// Why writing failed, set by the recorder's thread; the rest of the recording is dropped.
    private var problem: String?

    /// Called by the update thread for each sample it reads.
    @inline(__always)
    func add(_ sample: MotionSample) {
        if isOn.load(ordering: .relaxed) { ring.push(sample) }
    }

    var isRecording: Bool { thread != nil }

    func start(path: String, source: any MotionSource) throws(MotionError) {
        let writer: RecordingWriter
        do {
            writer = try RecordingWriter(path: path, header: RecordingHeader(recording: source))
        } catch {
            throw .recordingNotSaved(error.description)
        }
        // What a previous recording left in the ring after its last drain is not this one's.
        ring.drain { _ in }
        droppedBefore = ring.droppedCount
        problem = nil
        self.writer = writer
        running.store(true, ordering: .releasing)
        do {
            thread = try OSThread(name: "motion-record") { [self] in write() }
        } catch {
            running.store(false, ordering: .releasing)
            writer.abandon()
            self.writer = nil
            throw .recordingNotSaved("cannot start the thread motion-record: \(error)")
        }
        isOn.store(true, ordering: .releasing)
    }

    /// Ends the recording and gives the file its name.
    func stop() throws(MotionError) -> RecordingSummary? {
        guard let thread, let writer else { return nil }
        isOn.store(false, ordering: .releasing)
        running.store(false, ordering: .releasing)
        thread.join()
        self.thread = nil
        self.writer = nil
        if let problem { throw .recordingNotSaved(problem) }
        do {
            try writer.finish()
        } catch {
            throw .recordingNotSaved(error.description)
        }
        return RecordingSummary(path: writer.path, samples: writer.samplesWritten, lost: ring.droppedCount - droppedBefore)
    }

    /// The recorder thread's loop; `writer` was set before the thread started.
    private func write() {
        guard let writer else { return }
        func drain() {
            guard problem == nil else { ring.drain { _ in }; return }
            do {
                try ring.drain { sample in try writer.append(sample) }
            } catch {
                problem = "\(error)"
            }
        }
        while running.load(ordering: .acquiring) {
            MonotonicClock.sleep(until: MonotonicClock.now() + 20_000_000)
            drain()
        }
        drain()
    }
}

/// What a finished recording holds.
public struct RecordingSummary: Sendable, Equatable {
    /// The file written: a TiltMaze recording, as `tiltmaze record` writes,
    /// replayable with `SensorRequest.replay(path)`.
    public var path: String
    /// Samples in it.
    public var samples: Int
    /// Samples read but not written because the disk fell more than a
    /// second behind (0 on a healthy disk).
    public var lost: Int
}
