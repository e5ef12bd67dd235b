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
    // @unchecked Sendable: `model` and `intake` belong to the loop's
    // thread once started; other threads use the hand-offs below.
    public let rate: Double
    public let snapshots: LatestValue<Model.Snapshot>
    /// The calibration and the estimate's counts, published beside the snapshots.
    public let status: LatestValue<MotionStatus>
    private let referenceChanges: LatestValue<ReferenceChange>
    @exclusivity(unchecked) private var model: Model
    @exclusivity(unchecked) private var intake: MotionIntake
    private let commands: SPSCRing<Model.Command>
    private let thread: PeriodicThread

    public init(model: Model, samples: SPSCRing<MotionSample>, rate: Double = 100, estimator: TiltEstimator = TiltEstimator(),
                name: String = "tiltmaze-model") {
        precondition(rate > 0, "model rate must be positive")
        self.rate = rate
        self.model = model
        self.status = LatestValue(MotionStatus())
        self.referenceChanges = LatestValue(.none)
        self.intake = MotionIntake(samples: samples, estimator: estimator, referenceChanges: referenceChanges, status: status)
        self.commands = SPSCRing(capacity: 16)
        self.snapshots = LatestValue(model.snapshot)
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
        _ = intake.takeReferenceChange()
        _ = intake.drain { sample, motion, shake in model.observe(sample, motion: motion, shake: shake) }
        commands.drain { model.apply($0) }
        model.step(dt: Double(elapsed) / 1e9, gravity: intake.gravity)
        snapshots.publish(model.snapshot)
        intake.publishStatus()
    }
}
