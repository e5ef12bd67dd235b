// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// One accelerometer reading as the sensor gave it, as CoreMotion's
/// `CMAccelerometerData`, but in m/s² (CoreMotion counts in g).
public struct AccelerometerData: Sendable, Equatable, BitwiseCopyable {
    /// When the sample was taken: `CLOCK_MONOTONIC` nanoseconds.
    public var timestamp: Int64
    /// Specific force in the board frame, m/s²: (0, 0, +9.81) lying flat at
    /// rest, since the sensor feels the table pushing up, not gravity pulling down.
    public var acceleration: Vector3

    /// A reading of `acceleration` (m/s²) taken at `timestamp` (monotonic ns).
    public init(timestamp: Int64, acceleration: Vector3) {
        self.timestamp = timestamp
        self.acceleration = acceleration
    }
}

/// One gyroscope reading as the sensor gave it, bias and all, as CoreMotion's
/// `CMGyroData`. ``DeviceMotion/rotationRate`` has the bias taken out.
public struct GyroData: Sendable, Equatable, BitwiseCopyable {
    /// When the sample was taken: `CLOCK_MONOTONIC` nanoseconds.
    public var timestamp: Int64
    /// Rotation rate about the board's x, y and z axes, rad/s, right-handed.
    public var rotationRate: Vector3

    /// A reading of `rotationRate` (rad/s) taken at `timestamp` (monotonic ns).
    public init(timestamp: Int64, rotationRate: Vector3) {
        self.timestamp = timestamp
        self.rotationRate = rotationRate
    }
}
