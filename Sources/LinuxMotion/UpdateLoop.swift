// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import MotionDevices
import Realtime
import Synchronization
import SystemCalls

/// The manager's thread: reads the source (`SampleReader`: its doorbell, or
/// a look every 2 ms at a ring that has none), fuses each sample and hands
/// it to `deliver`, and ends the updates when the source does.
final class UpdateLoop: @unchecked Sendable {
    // @unchecked Sendable: `intake` belongs to the loop's thread once it
    // runs; the rest is atomic or immutable.

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

    /// Ends the loop and waits for its thread: at once when the ring has a
    /// bell (rung here), within `SampleReader.pollPeriod` when not.
    func stop() {
        running.store(false, ordering: .releasing)
        source.samples.bell?.ring()
        thread?.join()
        thread = nil
    }

    private func run() {
        var reader = SampleReader(source)
        let recorder = self.recorder, deliver = self.deliver
        while running.load(ordering: .acquiring) {
            let woke = coalescing > 0 ? MonotonicClock.now() : 0
            var isNew = intake.takeReferenceChange()
            var reference = intake.estimator.reference  // only takeReferenceChange changes it, not a sample
            var taken = 0
            let stop = reader.read(until: .max) { sample in
                // A change made while the loop slept is the sample's that woke it.
                if intake.takeReferenceChange() {
                    isNew = true
                    reference = intake.estimator.reference
                }
                let (motion, shake) = intake.add(sample)
                recorder.add(sample)
                deliver(sample, motion, shake, reference)
                taken += 1
            }
            counts.read.wrappingAdd(taken, ordering: .relaxed)
            if taken > 0 || isNew { intake.publishStatus() }
            switch stop {
            case .failed(let failure): return end(.sensorStopped(failure))
            case .ended: return end(nil)
            case nil, .deadline, .interrupted: break
            }
            if taken > 0, coalescing > 0 { MonotonicClock.sleep(until: woke + coalescing) }
        }
    }

    private func end(_ error: MotionError?) {
        finished.store(true, ordering: .releasing)
        completion(error)
    }
}
