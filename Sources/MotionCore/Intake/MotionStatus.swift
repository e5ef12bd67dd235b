// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.

/// What the consumer of a sensor's ring publishes beside what it computes
/// (the game's world, a screen's model, a program's updates): the
/// calibration as it stands, and enough of the estimate for a screen to
/// say what the sensor gives. Made in one place, `MotionIntake.status`.
public struct MotionStatus: BitwiseCopyable, Sendable {
    /// The neutral in use, the gyroscope's bias and the refined magnetometer: what is saved.
    public var calibration = CalibrationState()
    /// Changes to the neutral taken so far: a screen that asked for one sees it land.
    public var referenceChanges: UInt64 = 0
    public var hasGyroscope = false
    public var samplesSeen = 0

    public init() {}
}
