// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime
import Synchronization
import SystemCalls

/// The manager's thread: sleeps on the source's doorbell until a sample is
/// pushed (or polls, for a source whose ring has none), fuses each sample
/// and hands it to `deliver`, and ends the updates when the source does.
final class UpdateLoop: @unchecked Sendable {
    // @unchecked Sendable: `intake`, `ended` and `statusSeen` belong to
    // the loop's thread once it runs; the rest is atomic or immutable.

    /// Work that finds nothing still looks at the source's status this often,
    /// and a ring with no bell is polled this often.
    static let idlePeriod: Int64 = 2_000_000

    /// A sample, its fusion, the shake it completed and the neutral in force.
    typealias Deliver = @Sendable (MotionSample, FusedMotion, Shake?, TiltReference) -> Void

    private let source: any MotionSource
    /// Least time between two deliveries (0: each sample as it comes).
    private let coalescing: Int64
    private let deliver: Deliver
    private let completion: @Sendable (MotionError?) -> Void
    private let counts: UpdateCounts
    private let recorder: SessionRecorder
    /// Set once the updates ended by themselves (the completion ran).
    let finished = Atomic<Bool>(false)
    private let running = Atomic<Bool>(true)
    private var thread: OSThread?

    private var intake: MotionIntake
    private var ended = false
    private var statusSeen: UInt64?

    /// - Parameter coalescing: nanoseconds the loop waits after a delivery
    ///   before the next, so that a fast sensor's samples go in batches.
    init(source: any MotionSource, coalescing: Int64 = 0, estimator: TiltEstimator,
         referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical, references: LatestValue<ReferenceChange>,
         status: LatestValue<MotionStatus>, counts: UpdateCounts, recorder: SessionRecorder, deliver: @escaping Deliver,
         completion: @escaping @Sendable (MotionError?) -> Void) {
        self.source = source
        self.coalescing = coalescing
        self.intake = MotionIntake(samples: source.samples, estimator: estimator, referenceFrame: referenceFrame,
                                   referenceChanges: references, status: status)
        self.counts = counts
        self.recorder = recorder
        self.deliver = deliver
        self.completion = completion
    }

    func start(threadName: String) throws(ThreadError) {
        thread = try OSThread(name: threadName) { [self] in run() }
    }

    /// Ends the loop and waits for its thread: within one idle period, at once
    /// when the ring has a bell.
    func stop() {
        running.store(false, ordering: .releasing)
        source.samples.bell?.ring()
        thread?.join()
        thread = nil
    }

    private func run() {
        let doorbell = source.samples.bell as? Doorbell
        while running.load(ordering: .acquiring) {
            let seen = doorbell?.rings ?? 0
            let woke = coalescing > 0 ? MonotonicClock.now() : 0
            let (taken, changed) = drainOnce()
            guard !ended else { return }
            if taken > 0 || changed {
                if coalescing > 0 { MonotonicClock.sleep(until: woke + coalescing) }
                continue
            }
            if let doorbell {
                doorbell.wait(after: seen, timeout: Self.idlePeriod)
            } else {
                MonotonicClock.sleep(until: MonotonicClock.now() + Self.idlePeriod)
            }
        }
    }

    /// Takes every sample waiting and looks at the source's status; returns
    /// how many samples came and whether the reference changed.
    private func drainOnce() -> (taken: Int, changed: Bool) {
        let isNew = intake.takeReferenceChange()
        let recorder = self.recorder, deliver = self.deliver
        let reference = intake.estimator.reference  // a drain never changes it: only takeReferenceChange does
        let taken = intake.drain { sample, motion, shake in
            recorder.add(sample)
            deliver(sample, motion, shake, reference)
        }
        counts.read.wrappingAdd(taken, ordering: .relaxed)
        if taken > 0 || isNew { intake.publishStatus() }
        let status = source.statusChanges
        if status != statusSeen {
            statusSeen = status
            if let failure = source.failure {
                end(.sensorStopped(failure))
            }
        }
        // A recording's last samples may come after this drain: end on the pass that finds none.
        if !ended, taken == 0, source.hasEnded, source.samples.isEmpty { end(nil) }
        return (taken, isNew)
    }

    private func end(_ error: MotionError?) {
        ended = true
        finished.store(true, ordering: .releasing)
        completion(error)
    }
}
