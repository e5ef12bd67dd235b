// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What the motion layer knows after a sample, as CoreMotion's device motion
/// says it: where the board points, gravity and the player's own push
/// separated, and the rotation rate with the gyroscope's bias taken out.
public struct FusedMotion: Sendable, Equatable, BitwiseCopyable {
    /// Board → earth (earth z up); heading is free with six axes and may drift.
    public var attitude: Quaternion
    /// Gravity's pull in the board frame, m/s²: about (0, 0, −9.81) for a board lying flat.
    public var gravity: Vector3
    /// What the accelerometer measured beyond gravity: accel + gravity, m/s².
    public var userAcceleration: Vector3
    /// Gyroscope minus its estimated bias, rad/s.
    public var rotationRate: Vector3

    public init(attitude: Quaternion = .identity, gravity: Vector3 = .zero, userAcceleration: Vector3 = .zero,
                rotationRate: Vector3 = .zero) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
    }
}
