// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff

/// The one consumer of a sensor's ring: every sample into the attitude
/// filter (and, where a screen or a program wants them, the fused motion
/// and shakes), the player's changes to the neutral taken between samples,
/// the sensor's rate measured, and the calibration published beside
/// whatever the consumer computes from the estimate.
///
/// The game's physics, the motion screens' models and LinuxMotion's
/// update thread each own one on their thread. It is not copyable: the
/// estimator's state lives here once, never in a copy that falls behind.
/// On its hot path it takes no lock and allocates nothing.
public struct MotionIntake: ~Copyable {
    public let samples: SPSCRing<MotionSample>
    /// Changes to the neutral, published by one other thread (the screen's, the program's).
    public let referenceChanges: LatestValue<ReferenceChange>
    /// The status as of the last drain; read by one other thread.
    public let status: LatestValue<MotionStatus>
    public private(set) var processor: MotionProcessor
    /// Samples taken out of the ring so far.
    public private(set) var drained: UInt64 = 0
    /// Changes to the neutral taken so far.
    public private(set) var changesTaken: UInt64 = 0
    /// Samples a second reaching this consumer, over the last second or so; 0 before the first.
    public private(set) var sensorRate = 0.0
    private var rateSamples = 0
    private var rateWindow: Int64 = 0

    /// - Parameters:
    ///   - referenceChanges, status: hand-offs that outlive this intake (a
    ///     program's manager keeps them across restarts); new ones otherwise.
    public init(samples: SPSCRing<MotionSample>, estimator: TiltEstimator = TiltEstimator(),
                referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
                referenceChanges: LatestValue<ReferenceChange> = LatestValue(.none),
                status: LatestValue<MotionStatus>? = nil) {
        self.samples = samples
        self.processor = MotionProcessor(estimator: estimator, referenceFrame: referenceFrame)
        self.referenceChanges = referenceChanges
        // The starting status, made here rather than by `publishStatus()`:
        // Swift 6.2 (the arm64 cross build's) refuses a mutating call in a
        // non-copyable struct's initialiser.
        let status = status ?? LatestValue(MotionStatus())
        status.publish(Self.status(of: estimator, referenceChanges: 0))
        self.status = status
    }

    /// The estimate, borrowed: the estimator is large (the attitude filter's
    /// state), and a getter would copy it on every read of a tick.
    public var estimator: TiltEstimator {
        _read { yield processor.estimator }
    }

    // The reads a tick makes are `mutating get`: the intake is some 10 KB
    // (the attitude filter's state), and a plain getter on it, called from
    // the class that owns it, was handed a copy of it all; a mutating one
    // works in place. (`gravity` still copies the estimator once, to call
    // its out-of-line `measuredGravity`: one copy a tick, where there were two.)

    /// Gravity in the board's frame as the player's neutral sees it: what the physics rolls by.
    public var gravity: Vector3 { mutating get { processor.estimator.gravity } }
    /// The newest sample's timestamp (monotonic ns); 0 before the first.
    public var lastSampleTime: Int64 { mutating get { processor.estimator.lastTimestamp } }

    /// Takes the newest change to the neutral, if one came since the last call.
    /// - Returns: whether one did.
    public mutating func takeReferenceChange() -> Bool {
        let (change, isNew) = referenceChanges.read()
        guard isNew else { return false }
        processor.changeReference(change)
        changesTaken &+= 1
        return true
    }

    /// Every waiting sample into the estimate alone: what the game's
    /// physics needs (no fused motion, no shakes).
    /// - Returns: how many came.
    public mutating func drainIntoEstimate() -> Int {
        let taken = samples.drain { processor.estimate($0) }
        drained &+= UInt64(taken)
        return taken
    }

    /// Every waiting sample through the motion processor, each handed to
    /// `each` with its fused motion and the shake it completed.
    /// - Returns: how many came.
    public mutating func drain(_ each: (MotionSample, FusedMotion, Shake?) -> Void) -> Int {
        let taken = samples.drain { sample in
            let (motion, shake) = processor.add(sample)
            each(sample, motion, shake)
        }
        drained &+= UInt64(taken)
        return taken
    }

    /// One sample through the motion processor, read by the caller (a
    /// `SampleReader` of the intake's ring): its fused motion and the shake it completed.
    public mutating func add(_ sample: MotionSample) -> (FusedMotion, Shake?) {
        drained &+= 1
        return processor.add(sample)
    }

    /// Counts `taken` samples over `elapsed` ns toward the sensor's rate.
    public mutating func measureRate(taken: Int, elapsed: Int64) {
        rateSamples += taken
        rateWindow += elapsed
        if rateWindow >= 1_000_000_000 {
            sensorRate = Double(rateSamples) * 1e9 / Double(rateWindow)
            rateSamples = 0
            rateWindow = 0
        }
    }

    /// What the estimate says now: the calibration and the counts.
    public var currentStatus: MotionStatus {
        mutating get { Self.status(of: processor.estimator, referenceChanges: changesTaken) }
    }

    /// The one place an estimator's state becomes a status (and its calibration).
    private static func status(of estimator: borrowing TiltEstimator, referenceChanges: UInt64) -> MotionStatus {
        var s = MotionStatus()
        s.calibration = CalibrationState(estimator)
        s.referenceChanges = referenceChanges
        s.hasGyroscope = estimator.hasGyroscope
        s.samplesSeen = estimator.samplesSeen
        return s
    }

    /// Hands `currentStatus` to the status's reader. Consumer thread only.
    public mutating func publishStatus() { status.publish(currentStatus) }
}
