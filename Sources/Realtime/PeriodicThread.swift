// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization
import SystemCalls

/// A real OS thread that runs a body on an absolute schedule: the physics
/// loop and the simulated sensor. It sleeps to each deadline with
/// `clock_nanosleep(TIMER_ABSTIME)`, records how late it woke, calls the
/// body, and repeats until `stop()`.
///
/// Its lateness histogram is written by the thread alone and may be read
/// from any thread (`play --stats` shows its percentiles).
public final class PeriodicThread: @unchecked Sendable {
    // @unchecked Sendable: `thread` belongs to start/stop (one caller);
    // the thread talks to others only through `running` and `lateness`.

    /// One wake-up, as the body sees it.
    public struct Tick: Sendable {
        /// The deadline this wake-up was for (monotonic ns).
        public var deadline: Int64
        /// When the thread actually woke.
        public var now: Int64
        /// Time since the previous wake-up (one period on the first).
        public var elapsed: Int64
    }

    public let name: String
    public let period: Int64
    public let maxCatchUp: Int
    /// How late the kernel may wake the thread to fold its timer into
    /// another's, ns: the lateness a wake-up may have by design.
    public let timerSlack: Int
    /// How late each wake-up was, in ns.
    public let lateness = LatencyHistogram()
    private let running = Atomic<Bool>(false)
    private var thread: OSThread?

    /// - Parameters:
    ///   - name: the thread's name (15 bytes are kept), shown by `top -H`.
    ///   - period: nanoseconds between wake-ups.
    ///   - maxCatchUp: periods a late wake-up may make up before the rest are skipped.
    /// - Parameter timerSlack: 10 µs unless given. Linux lets a normal
    ///   thread's wake-up be 50 µs late to batch timers; measured at 1 kHz that
    ///   slack is most of the lateness (p50 ~90 µs), so the physics asks for
    ///   10 µs. A thread whose work does not depend on when it wakes (it
    ///   stamps what it makes with the deadline) may allow more, so that its
    ///   wake-up rides on another thread's timer: a wake-up is most of what a
    ///   short tick costs.
    public init(name: String, period: Int64, maxCatchUp: Int = 8, timerSlack: Int = 10_000) {
        precondition(period > 0, "a period must be positive")
        precondition(timerSlack > 0, "a timer slack must be positive (0 would ask for the default)")
        self.name = name
        self.period = period
        self.maxCatchUp = maxCatchUp
        self.timerSlack = timerSlack
    }

    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Starts the thread; `body` runs once per period on it. Does nothing if
    /// already running.
    public func start(_ body: @escaping @Sendable (Tick) -> Void) throws(ThreadError) {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let (period, maxCatchUp, lateness, timerSlack) = (period, maxCatchUp, lateness, timerSlack)
        do {
            thread = try OSThread(name: name) { [self] in
                ThreadControl.setTimerSlack(nanoseconds: timerSlack)
                var schedule = PeriodicSchedule(period: period, start: MonotonicClock.now(), maxCatchUp: maxCatchUp)
                var last = schedule.deadline - period
                while running.load(ordering: .relaxed) {
                    let deadline = schedule.deadline
                    MonotonicClock.sleep(until: deadline)
                    let now = MonotonicClock.now()
                    lateness.record(schedule.woke(at: now))
                    body(Tick(deadline: deadline, now: now, elapsed: now - last))
                    last = now
                }
            }
        } catch {
            running.store(false, ordering: .releasing)
            throw error
        }
    }

    /// Asks the thread to finish and waits for it: it returns within one
    /// period (plus the body's last run). Does nothing if not running.
    public func stop() {
        guard running.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged else { return }
        thread?.join()
        thread = nil
    }
}
