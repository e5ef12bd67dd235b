// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime
import Synchronization

/// Runs a `MotionModel` on a periodic thread: each tick drains the sensor's
/// ring through the motion processor (attitude, gravity, shakes), takes
/// any change to the neutral tilt and any command the screen sent, steps
/// the model and publishes its snapshot. Like `PhysicsLoop`, its hot path
/// takes no lock and allocates nothing.
public final class MotionModelLoop<Model: MotionModel>: @unchecked Sendable {
    // @unchecked Sendable: `model` and `processor` belong to the loop's
    // thread once started; other threads use the hand-offs below.
    public let rate: Double
    public let snapshots: LatestValue<Model.Snapshot>
    public let status: LatestValue<MotionStatus>
    private let samples: SPSCRing<MotionSample>
    @exclusivity(unchecked) private var model: Model
    @exclusivity(unchecked) private var processor: MotionProcessor
    @exclusivity(unchecked) private var changesTaken: UInt64 = 0
    private let commands: SPSCRing<Model.Command>
    private let referenceChanges = LatestValue<ReferenceChange>(.none)
    private let thread: PeriodicThread

    public init(model: Model, samples: SPSCRing<MotionSample>, rate: Double = 100, estimator: TiltEstimator = TiltEstimator(),
                name: String = "tiltmaze-model") {
        precondition(rate > 0, "model rate must be positive")
        self.rate = rate
        self.model = model
        self.samples = samples
        self.processor = MotionProcessor(estimator: estimator)
        self.commands = SPSCRing(capacity: 16)
        self.snapshots = LatestValue(model.snapshot)
        var initial = MotionStatus()
        initial.reference = estimator.reference
        initial.gyroBias = estimator.attitude.bias
        self.status = LatestValue(initial)
        self.thread = PeriodicThread(name: name, period: Int64((1e9 / rate).rounded()), maxCatchUp: 8)
    }

    public func start() throws {
        try thread.start { [self] wake in tick(elapsed: wake.elapsed) }
    }

    public func stop() { thread.stop() }

    /// Sends `command` to the model's next tick. One thread only (the screen's).
    public func send(_ command: Model.Command) { commands.push(command) }

    /// Changes the neutral tilt on the next tick. One thread only (the screen's).
    public func changeReference(_ change: ReferenceChange) { referenceChanges.publish(change) }

    /// One wake-up's work; tests drive it directly. Loop thread only.
    public func tick(elapsed: Int64) {
        let (change, isNew) = referenceChanges.read()
        if isNew {
            processor.changeReference(change)
            changesTaken &+= 1
        }
        samples.drain { sample in
            let (motion, shake) = processor.add(sample)
            model.observe(sample, motion: motion, shake: shake)
        }
        commands.drain { model.apply($0) }
        model.step(dt: Double(elapsed) / 1e9, gravity: processor.estimator.gravity)
        snapshots.publish(model.snapshot)
        let estimator = processor.estimator
        var s = MotionStatus()
        s.reference = estimator.reference
        s.referenceChanges = changesTaken
        s.gyroBias = estimator.attitude.bias
        s.hasLearntGyroBias = estimator.hasGyroscope && estimator.attitude.hasLearntBias
        s.refinedMagnetometer = estimator.refinedMagnetometerCalibration
        s.hasGyroscope = estimator.hasGyroscope
        s.samplesSeen = estimator.samplesSeen
        s.measuredGravity = estimator.measuredGravity
        status.publish(s)
    }
}
