// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime
import SystemCalls
import Synchronization

/// The thread a device source reads on, and everything about it that is not
/// the device's own reading. Every source that reads hardware (IIO captured
/// or polled, evdev, i2c-dev) has one and keeps only its device's part: how
/// to open it, how one pass of reading waits and reads, and what its
/// failures are called.
///
/// Here, once for all of them:
/// - the thread: started once (`start`), asked to stop, woken and joined
///   (`stop`);
/// - a sample checked and pushed into the ring, or refused and counted
///   (`offer`);
/// - the read loop (`readLoop`): a pass that fails as a glitching bus makes
///   it fail is made again (`TransientFaults`), a sample whose tries all
///   failed is dropped and counted, and a device that keeps failing for
///   `TransientFaults.giveUpAfter` ends the source; passes that find nothing
///   are timed, so a device that stays silent can be read another way
///   (`Patience.switchAfter`) or end the source with the reason
///   (`Patience.failAfter`);
/// - what other threads read of it: whether it runs, why it stopped, how it
///   reads now if that changed (`notice`), why it waits (`interruption`),
///   and the counts.
///
/// Nothing on the loop's path allocates or takes a lock: the closures a
/// source passes do not escape, and the texts (which do take one) change
/// only when the source's state does.
public final class SensorThread: @unchecked Sendable {
    // @unchecked Sendable: `thread` belongs to start/stop (one thread at a
    // time); everything else is atomic or a `ChangingText`.

    /// Where the samples go: the source's ring, read by one consumer.
    public let samples: SPSCRing<MotionSample>
    private var thread: OSThread?
    private let running = Atomic<Bool>(false)
    private let failureText = ChangingText()
    private let noticeText = ChangingText()
    private let interruptionText = ChangingText()
    private let rejected = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)
    private let failedSamples = Atomic<Int>(0)

    public init(samples: SPSCRing<MotionSample>) {
        self.samples = samples
    }

    // MARK: What other threads read

    /// Whether the thread should go on: its loop's test, one relaxed load.
    public var isRunning: Bool { running.load(ordering: .relaxed) }
    /// Whether the source was started and has not stopped: a second start does nothing.
    public var hasStarted: Bool { running.load(ordering: .acquiring) }
    /// Why the source stopped by itself, nil while it is fine. Any thread.
    public var failure: String? { failureText.value }
    /// How the source reads now, when that is not how it started (a silent
    /// trigger left for polling), nil otherwise. Any thread.
    public var notice: String? { noticeText.value }
    /// Why the source waits (a controller away), nil while it reads. Any thread.
    public var interruption: String? { interruptionText.value }
    /// Moves whenever `failure`, `notice` or `interruption` may have changed. Any thread.
    public var statusChanges: UInt64 { failureText.changeCount &+ noticeText.changeCount &+ interruptionText.changeCount }
    /// Readings refused as impossible. Any thread.
    public var rejectedCount: Int { rejected.load(ordering: .relaxed) }
    /// Reads made again after a transient error. Any thread.
    public var retryCount: Int { retries.load(ordering: .relaxed) }
    /// Samples dropped because every try to read them failed. Any thread.
    public var failedSampleCount: Int { failedSamples.load(ordering: .relaxed) }
    /// All of the above in one value, as a source gives it (`MotionSource.health`). Any thread.
    public var health: SourceHealth {
        SourceHealth(failure: failure, interruption: interruption, notice: notice,
                     rejected: rejectedCount, retried: retryCount, failedSamples: failedSampleCount)
    }

    // MARK: Start and stop

    /// Forgets the last run's failure, notice, interruption and counts
    /// (not the refusals: they add up over a source's life), before the
    /// source opens its device.
    public func prepareStart() {
        failureText.set(nil)
        noticeText.set(nil)
        interruptionText.set(nil)
        retries.store(0, ordering: .relaxed)
        failedSamples.store(0, ordering: .relaxed)
    }

    /// Starts `body` on a thread named `name`. If the thread cannot be made,
    /// the source is marked stopped and the error thrown: the caller
    /// releases its device.
    public func start(name: String, _ body: @escaping @Sendable () -> Void) throws {
        running.store(true, ordering: .releasing)
        do {
            thread = try OSThread(name: name, body)
        } catch {
            running.store(false, ordering: .releasing)
            throw error
        }
    }

    /// Asks the thread to end, calls `wake` to cut short a wait it may be
    /// sleeping in, and joins it. False when there was nothing to stop
    /// (never started, or stopped already): the caller then has nothing to
    /// release either.
    @discardableResult
    public func stop(wake: () -> Void = {}) -> Bool {
        guard running.exchange(false, ordering: .acquiringAndReleasing) || thread != nil else { return false }
        wake()
        thread?.join()
        thread = nil
        return true
    }

    /// Runs `body` (a `readLoop`) on the calling thread, marked running as
    /// `start` marks it: what the benchmarks measure the loop with, on a
    /// thread of their own.
    public func runHere(_ body: () -> Void) {
        running.store(true, ordering: .releasing)
        body()
        running.store(false, ordering: .releasing)
    }

    // MARK: On the thread

    /// A sample read whole: pushed if plausible (`judge`), else refused and counted.
    @inline(__always)
    public func offer(_ sample: MotionSample, judge: inout SamplePlausibility) {
        if judge.accept(sample) {
            samples.push(sample)
        } else {
            rejected.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Counts readings refused elsewhere (an evdev frame's assembler judges its own).
    public func reject(_ count: Int = 1) { rejected.wrappingAdd(count, ordering: .relaxed) }

    /// Says how the source reads now (not on a hot path: it takes a lock).
    public func setNotice(_ text: String?) {
        noticeText.set(text)
        samples.bell?.ring()
    }

    /// Says why the source waits, nil once it reads again.
    public func setInterruption(_ text: String?) {
        interruptionText.set(text)
        samples.bell?.ring()
    }

    /// Says why the source stopped and asks its thread to end.
    public func fail(_ message: String) {
        interruptionText.set(nil)
        failureText.set(message)
        running.store(false, ordering: .releasing)
        // A reader asleep on the ring hears of it now, not at its next look.
        samples.bell?.ring()
    }

    /// `body`, made again while it fails with a transient error and the
    /// source runs (or, `whileStopped`, before it runs: a transfer of its
    /// start or stop), at most `TransientFaults.retriesPerSample` times,
    /// each retry counted. `body` makes every read that belongs together.
    @inline(__always)
    public func retrying<T>(whileStopped: Bool = false, _ body: () throws(DeviceError) -> T) throws(DeviceError) -> T {
        try TransientFaults.retrying(while: { whileStopped || isRunning }, counting: { retries.wrappingAdd(1, ordering: .relaxed) }, body)
    }

    /// What one pass of a source's reading found.
    public enum Pass: Sendable {
        /// Samples (offered, whether or not they were accepted).
        case data
        /// Nothing yet: the pass waited in vain.
        case nothing
        /// The source was asked to stop in the middle of a wait, or the
        /// pass ended it (`fail`): the loop ends.
        case ended
    }

    /// How long a source waits for its device before it does something about it.
    public struct Patience: Sendable {
        /// A pass counts towards the silence for at most this long, ns: a
        /// stall of the whole process (Ctrl-Z, a virtual machine paused, a
        /// swapped-out Pi) is not the device's silence.
        public var slice: Int64
        /// After this long without data, ns, `readLoop`'s `switchOver` is
        /// asked to read another way; nil: never.
        public var switchAfter: Int64?
        /// After this long without data, ns, the source ends with
        /// `readLoop`'s `silent` text; nil: a device may be silent for ever
        /// (a controller lying still).
        public var failAfter: Int64?
        /// Whether a pass that fails with a transient error is made again
        /// (and a sample that fails every try dropped); false: the pass
        /// retries what it needs itself, and a transient error is counted
        /// as a failed sample all the same.
        public var retriesPasses: Bool

        public init(slice: Int64, switchAfter: Int64? = nil, failAfter: Int64? = nil, retriesPasses: Bool = true) {
            self.slice = slice
            self.switchAfter = switchAfter
            self.failAfter = failAfter
            self.retriesPasses = retriesPasses
        }
    }

    /// Runs `pass` until the source is asked to stop or ends.
    ///
    /// A pass waits for its device as the device needs (a sleep until its
    /// next look, a wait in `poll`) and offers what it read. A pass that
    /// throws a transient error is made again (`Patience.retriesPasses`);
    /// one whose tries all fail counts a failed sample, and when passes have
    /// failed so without one good pass for `TransientFaults.giveUpAfter`,
    /// the source ends with `keepsFailing(error)`. Any other error ends it
    /// with `failed(error)`. Passes that find nothing add up their time
    /// (each at most `Patience.slice`): at `Patience.switchAfter`,
    /// `switchOver()` is called once, and the loop ends if it says it has
    /// taken over; at `Patience.failAfter` the source ends with `silent()`.
    public func readLoop(_ patience: Patience,
                  keepsFailing: (DeviceError) -> String,
                  failed: (DeviceError) -> String,
                  silent: () -> String = { "no data" },
                  switchOver: () -> Bool = { false },
                  pass: () throws(DeviceError) -> Pass) {
        var faults = TransientFaults()
        var waitedInVain: Int64 = 0
        var switchTried = false
        var passStarted = MonotonicClock.now()
        while isRunning {
            var found = Pass.nothing
            do {
                found = patience.retriesPasses ? try retrying(pass) : try pass()
                faults.succeeded()
            } catch where error.isTransient {
                failedSamples.wrappingAdd(1, ordering: .relaxed)
                if faults.sampleFailed(at: MonotonicClock.now()) {
                    fail(keepsFailing(error))
                    return
                }
            } catch {
                fail(failed(error))
                return
            }
            let now = MonotonicClock.now()
            switch found {
            case .ended: return
            case .data: waitedInVain = 0
            case .nothing: waitedInVain += min(now - passStarted, patience.slice)
            }
            passStarted = now
            if let after = patience.switchAfter, waitedInVain >= after, !switchTried {
                switchTried = true
                if switchOver() { return }
            }
            if let limit = patience.failAfter, waitedInVain > limit {
                fail(silent())
                return
            }
        }
    }
}
