// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Realtime
import Handoff
import Synchronization

/// The physics thread: wakes on an absolute schedule, drains every sample the
/// sensor produced, updates the tilt estimate and steps the world with a fixed
/// `dt`, then hands the newest state to the renderer. It never waits for the
/// renderer, and on its hot path it takes no lock, allocates nothing and makes
/// no syscall but the sleep (and the vDSO clock read).
public final class PhysicsLoop: @unchecked Sendable {
    // @unchecked Sendable: `world`, `intake` and `clock` belong to the physics
    // thread once started; other threads talk to it through the atomics below.

    public let rate: Double
    public let snapshots: LatestValue<WorldSnapshot>
    /// The calibration and the estimate's counts, published beside the
    /// snapshots after each tick that took a sample or a new neutral. One reader thread.
    public let motionStatus: LatestValue<MotionStatus>
    /// Changes to the player's neutral tilt, from one other thread (the session's).
    private let referenceChanges: LatestValue<ReferenceChange>
    // Physics-thread state: one thread only, so no runtime exclusivity checks.
    @exclusivity(unchecked) private var world: World
    @exclusivity(unchecked) private var intake: MotionIntake
    @exclusivity(unchecked) private var clock: FixedStepClock
    @exclusivity(unchecked) private var felt: FeltTilt
    /// A new feel from the settings screen, for the next tick. One writer thread.
    private let feelChanges: LatestValue<TiltFeel>
    private let thread: PeriodicThread

    private let pauseRequested = Atomic<Bool>(false)
    private let restartRequests = Atomic<Int>(0)
    private var restartsSeen = 0

    /// Default rate: 240 Hz. A multiple of 60 Hz and 120 Hz displays, small
    /// enough a step (~4 ms) that a ball at top speed moves under a tenth of a
    /// cell, and far below what the step costs (see Benchmarks/).
    public static let defaultRate = 240.0

    /// - Parameter feel: the player's sensitivity, dead zone, smoothing and inversion.
    public init(level: Level, samples: SPSCRing<MotionSample>, rate: Double = PhysicsLoop.defaultRate,
                parameters: PhysicsParameters = PhysicsParameters(), rules: GameRules = GameRules(),
                estimator: TiltEstimator = TiltEstimator(), feel: TiltFeel = .standard) {
        precondition(rate > 0, "physics rate must be positive")
        self.rate = rate
        self.felt = FeltTilt(feel)
        self.feelChanges = LatestValue(feel)
        let step = Int64((1e9 / rate).rounded())
        self.world = World(level: level, parameters: parameters, rules: rules, dt: Double(step) / 1e9)
        self.clock = FixedStepClock(step: step, maxSteps: 8)
        self.thread = PeriodicThread(name: "tiltmaze-phys", period: step, maxCatchUp: 8)
        self.motionStatus = LatestValue(MotionStatus())
        self.referenceChanges = LatestValue(.none)
        self.intake = MotionIntake(samples: samples, estimator: estimator, referenceChanges: referenceChanges,
                                   status: motionStatus)
        var initial = WorldSnapshot()
        world.snapshot(into: &initial)
        self.snapshots = LatestValue(initial)
    }


    /// Starts the physics thread: a tick per step, on an absolute schedule.
    public func start() throws {
        try thread.start { [self] wake in tick(elapsed: wake.elapsed) }
    }

    /// Stops the thread and waits for it.
    public func stop() { thread.stop() }

    /// The level being played.
    public var level: Level { world.level }

    /// Puts a new game of `level` in place of the current one, keeping the
    /// tilt estimate (the sensor has not moved). Only while stopped: the
    /// world belongs to the physics thread while it runs. Builds the new
    /// world here, off the physics thread, so its ticks never allocate.
    public func load(_ level: Level) {
        precondition(!thread.isRunning, "stop the physics before changing the level")
        world = World(level: level, parameters: world.parameters, rules: world.rules, dt: world.dt)
        clock = FixedStepClock(step: clock.step, maxSteps: 8)
        restartsSeen = restartRequests.load(ordering: .relaxed)
        snapshots.publish { fill(&$0, gravity: intake.gravity) }
    }

    /// How late the physics thread woke for each tick, ns. Any thread may read it.
    public var tickLateness: LatencyHistogram { thread.lateness }

    /// Pauses or resumes the game. Any thread.
    public func setPaused(_ paused: Bool) { pauseRequested.store(paused, ordering: .relaxed) }
    public var isPauseRequested: Bool { pauseRequested.load(ordering: .relaxed) }

    /// Puts the ball back at the start and resets the clock. Any thread.
    public func restart() { restartRequests.wrappingAdd(1, ordering: .relaxed) }

    /// Changes the neutral tilt on the next tick. One thread only (the frame loop's).
    public func changeReference(_ change: ReferenceChange) { referenceChanges.publish(change) }

    /// Changes the player's feel from the next tick. One thread only (the frame loop's).
    public func changeFeel(_ feel: TiltFeel) { feelChanges.publish(feel) }

    /// One wake-up's work: exposed so tests and benchmarks can drive the loop
    /// without a thread or a clock. Physics thread only.
    public func tick(elapsed: Int64) {
        let taken = intake.drainIntoEstimate()
        intake.measureRate(taken: taken, elapsed: elapsed)
        if intake.takeReferenceChange() || taken > 0 { intake.publishStatus() }

        let restarts = restartRequests.load(ordering: .relaxed)
        if restarts != restartsSeen {
            restartsSeen = restarts
            world.restart()
        }
        world.setPaused(pauseRequested.load(ordering: .relaxed))

        let steps = clock.advance(by: elapsed)
        let (feel, isNewFeel) = feelChanges.read()
        if isNewFeel { felt.feel = feel }
        let gravity = felt.apply(intake.gravity, dt: Double(steps) * world.dt)
        for _ in 0..<steps { world.step(gravity: gravity) }

        // In place: the snapshot is some 700 bytes (16 ghosts inline), and a tick at rest should cost little beyond its wake-up.
        snapshots.publish { fill(&$0, gravity: gravity) }
    }

    /// Writes every part of `s` (the slot may hold any older snapshot).
    private func fill(_ s: inout WorldSnapshot, gravity: Vector3) {
        world.snapshot(into: &s)
        s.gravity = gravity
        s.samplesDrained = intake.drained
        s.samplesDropped = intake.samples.droppedCount
        s.overruns = clock.overruns
        s.lastSampleTime = intake.lastSampleTime
        s.sensorRate = intake.sensorRate
    }
}
