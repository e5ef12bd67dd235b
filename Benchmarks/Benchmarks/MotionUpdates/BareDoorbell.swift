// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Realtime
import Synchronization
import SystemCalls

/// The floor under the handler's latency: one thread asleep on a
/// `Doorbell`, another ringing it every millisecond with the time it rang;
/// the sleeper records how long it took to wake. No ring, no fusion, no
/// manager: what is left is the kernel's futex wake on this machine.
final class BareDoorbell: @unchecked Sendable {
    // @unchecked Sendable: `log` is the LatencyLog's (see there); the rest is atomic.
    let bell = Doorbell()
    let rangAt = Atomic<Int64>(0)
    let log = LatencyLog()
    private let running = Atomic<Bool>(true)
    private var sleeper: OSThread?
    private let ringer: PeriodicThread

    init() {
        ringer = PeriodicThread(name: "bench-ringer", period: 1_000_000, maxCatchUp: 1)
    }

    func start() throws {
        sleeper = try OSThread(name: "bench-sleeper") { [self] in
            var seen = bell.rings
            while running.load(ordering: .relaxed) {
                bell.wait(after: seen, timeout: 100_000_000)
                let now = MonotonicClock.now()
                let rings = bell.rings
                guard rings != seen else { continue }
                seen = rings
                log.add(now - rangAt.load(ordering: .acquiring))
            }
        }
        try ringer.start { [self] _ in
            rangAt.store(MonotonicClock.now(), ordering: .releasing)
            bell.ring()
        }
    }

    func stop() {
        ringer.stop()
        running.store(false, ordering: .relaxed)
        bell.ring()
        sleeper?.join()
    }
}
