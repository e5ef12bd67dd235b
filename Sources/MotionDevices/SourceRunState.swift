// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import Synchronization

/// What a device source's thread shares with the rest of the program:
/// whether it should go on, why it stopped by itself, how it reads now if
/// that changed (`notice`), how many readings it refused as impossible, and
/// how many reads a glitching bus made it retry or drop (`TransientFaults`). The one piece every source that reads a device
/// on a thread of its own keeps (IIO captured or polled, evdev, i2c-dev).
final class SourceRunState: Sendable {
    private let running = Atomic<Bool>(false)
    private let failureText = ChangingText()
    private let noticeText = ChangingText()
    private let rejected = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)
    private let failedSamples = Atomic<Int>(0)

    /// Whether the thread should go on: its loop's test, one relaxed load.
    var isRunning: Bool { running.load(ordering: .relaxed) }
    /// Whether the source was started and has not stopped: a second start does nothing.
    var hasStarted: Bool { running.load(ordering: .acquiring) }
    /// Why the source stopped by itself, nil while it is fine. Any thread.
    var failure: String? { failureText.value }
    /// How the source reads now, when that is not how it started (a silent
    /// trigger left for polling), nil otherwise. Any thread.
    var notice: String? { noticeText.value }
    /// Moves whenever `failure` or `notice` may have changed. Any thread.
    var statusChanges: UInt64 { failureText.changeCount &+ noticeText.changeCount }
    /// Readings refused as impossible. Any thread.
    var rejectedCount: Int { rejected.load(ordering: .relaxed) }
    /// Reads made again after a transient error. Any thread.
    var retryCount: Int { retries.load(ordering: .relaxed) }
    /// Samples dropped because every try to read them failed. Any thread.
    var failedSampleCount: Int { failedSamples.load(ordering: .relaxed) }

    /// Before a start: the last run's failure, notice and counts are forgotten.
    func prepareStart() {
        failureText.set(nil)
        noticeText.set(nil)
        retries.store(0, ordering: .relaxed)
        failedSamples.store(0, ordering: .relaxed)
    }
    /// The thread may run (set before it is made).
    func markRunning() { running.store(true, ordering: .releasing) }
    /// The thread could not be made, or will not run on.
    func markStopped() { running.store(false, ordering: .releasing) }
    /// Asks the thread to end; whether it had been running.
    func requestStop() -> Bool { running.exchange(false, ordering: .acquiringAndReleasing) }
    /// Counts readings refused as impossible.
    func reject(_ count: Int = 1) { rejected.wrappingAdd(count, ordering: .relaxed) }
    /// Counts a read made again.
    func countRetry() { retries.wrappingAdd(1, ordering: .relaxed) }
    /// Counts a sample dropped after its tries failed.
    func countFailedSample() { failedSamples.wrappingAdd(1, ordering: .relaxed) }
    /// Says how the source reads now (not on a hot path: it takes a lock).
    func setNotice(_ text: String?) { noticeText.set(text) }
    /// Says why the source stopped and asks its thread to end.
    func fail(_ message: String) {
        failureText.set(message)
        markStopped()
    }
}
