// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime
import SystemCalls
import Synchronization

/// A recording played back as if the sensor were there: a thread of its
/// own pushes each sample when its time comes (the gaps between samples as
/// recorded), stamped on today's monotonic clock, into the same kind of ring
/// a live sensor feeds. Nothing downstream can tell the difference.
///
/// When the recording runs out the source says so through `interruption`,
/// which pauses the game with the reason on the status line.
public final class ReplaySource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `recording` is immutable; `thread` belongs to
    // start/stop; the flags are atomics.
    public let recording: Recording
    public let path: String
    public let samples: SPSCRing<MotionSample>
    public var rate: Double { recording.header.rate }
    public var displayName: String { "replay of \(path) (\(recording.header.device))" }
    /// A replay keeps no calibration of its own: the player's is for live sensors.
    public var calibrationIdentity: String? { nil }
    /// The recorded sensor's, as its header keeps them.
    public var scales: SensorScales? {
        let header = recording.header
        var scales = SensorScales(accel: header.accelScale, gyro: header.gyroScale, hasGyroscope: header.hasGyroscope, mount: header.mount,
                                  magnetometer: header.magnetometerScale, hasMagnetometer: header.hasMagnetometer,
                                  accelerometer: header.accelerometer)
        scales.accelerometerScaledByGravity = header.accelerometerScaledByGravity
        return scales
    }

    private var thread: OSThread?
    private let running = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    /// How long the thread sleeps at most between looks at `running`.
    private static let napLimit: Int64 = 50_000_000

    public init(recording: Recording, path: String, ringCapacity: Int = defaultSampleRingCapacity) {
        self.recording = recording
        self.path = path
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
    }

    /// Interrupted once the recording has ended; nothing else to report.
    public var health: SourceHealth {
        var health = SourceHealth.fine
        if ended.load(ordering: .relaxed) { health.interruption = "the recording \(path) has ended: q quits" }
        return health
    }

    public var statusChanges: UInt64 { ended.load(ordering: .relaxed) ? 1 : 0 }

    // Acquiring, as the end is stored releasing after the last push: a
    // reader that sees the end sees every sample before it.
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    public func start() throws {
        guard !running.load(ordering: .acquiring) else { return }
        running.store(true, ordering: .releasing)
        ended.store(false, ordering: .relaxed)
        thread = try OSThread(name: "tiltmaze-replay") { [self] in play() }
    }

    public func stop() {
        running.store(false, ordering: .releasing)
        thread?.join()
        thread = nil
    }

    private func play() {
        let list = recording.samples
        guard let first = list.first else { end(); return }
        let origin = MonotonicClock.now()
        for var sample in list {
            let due = origin + (sample.timestamp - first.timestamp)
            while true {
                guard running.load(ordering: .relaxed) else { return }
                let now = MonotonicClock.now()
                if now >= due { break }
                MonotonicClock.sleep(until: min(due, now + Self.napLimit))
            }
            sample.timestamp = due
            samples.push(sample)
        }
        end()
    }

    /// Says the recording has ended, and rings the ring's bell so that a
    /// reader waiting on it hears so at once.
    private func end() {
        ended.store(true, ordering: .releasing)
        samples.bell?.ring()
    }
}
