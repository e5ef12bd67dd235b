// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import LinuxMotion
import MotionCore
import Realtime
import Synchronization
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// The simulated board (MotionCore's `TiltBoard`, as `--source sim` runs
/// it) on a 1 kHz thread, with one difference: each sample is stamped with
/// the instant it is pushed, not the instant it stands for, so that a handler
/// reading `now − timestamp` measures the ring → handler path alone, without
/// the board thread's own lateness in waking.
final class BenchBoard: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `board` belongs to the board's thread.
    // The ring the motion library gives a source of ours: pushes ring its doorbell.
    let samples = MotionManager.sampleRing(capacity: defaultSampleRingCapacity)
    let rate: Double
    var displayName: String { "simulated board at \(Int(rate)) Hz, stamped at push" }
    var calibrationIdentity: String? { nil }
    var health: SourceHealth { .fine }
    var statusChanges: UInt64 { 0 }
    var scales: SensorScales? { SensorScales(accel: nil, gyro: nil, hasGyroscope: true, mount: .identity) }
    private let thread: PeriodicThread
    private var board = TiltBoard()

    init(rate: Double) {
        self.rate = rate
        thread = PeriodicThread(name: "bench-board", period: Int64(1e9 / rate), maxCatchUp: 1)
    }

    func start() throws {
        let dt = 1 / rate
        try thread.start { [self] _ in
            // A slow roll back and forth, so the filter has motion to follow.
            board.targetRoll = board.roll > 0.2 ? -0.3 : (board.roll < -0.2 ? 0.3 : board.targetRoll == 0 ? 0.3 : board.targetRoll)
            var sample = board.advance(by: dt, timestamp: 0)
            sample.timestamp = MonotonicClock.now()
            samples.push(sample)
        }
    }

    func stop() { thread.stop() }
}

/// CPU time of the whole process (every thread), ns: `CLOCK_PROCESS_CPUTIME_ID`.
func processCPU() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}
