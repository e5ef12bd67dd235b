// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import LibC

/// The calibration screen's test square: it rolls with the tilt so the
/// player can see that the neutral they chose is where it rests. The motion
/// is the tutorial's velocity model, kept with its named parameters:
///
///     velocity = velocity · deceleration + tilt · sensitivity
///     velocity = clamp(velocity, ±maximumVelocity)
///     position = position + velocity
///
/// The tutorial runs that once per 1/60 s frame; here the same numbers are
/// scaled to the model's own step, so it feels the same at any rate. Units
/// are the arena's side (the square lives in 0…1 on both axes, y down as on
/// screen) and seconds; edges bounce it back at half speed, as the maze's walls do.
public struct CalibrationSquare: MotionModel {
    public struct Parameters: Sendable, Equatable {
        /// Velocity kept per 1/60 s with no tilt.
        public var deceleration = 0.95
        /// Arena sides per second per 1/60 s, per g of in-plane gravity.
        public var sensitivity = 0.06
        /// Arena sides per second.
        public var maximumVelocity = 1.5
        /// The square's side, in arena sides.
        public var size = 0.1
        public init() {}
    }

    public struct Snapshot: BitwiseCopyable, Sendable, Equatable {
        /// Centre, arena sides from the top left.
        public var x = 0.5, y = 0.5
        public var size = 0.1
        /// In-plane gravity as the square feels it, in g (x right, y down): the tilt from the neutral.
        public var tiltX = 0.0, tiltY = 0.0
        /// How far the board leans from the neutral, degrees.
        public var leanDegrees = 0.0
    }

    public enum Command: BitwiseCopyable, Sendable {
        /// Back to the middle, at rest (after a new neutral is taken).
        case centre
    }

    public var parameters: Parameters
    public private(set) var snapshot: Snapshot
    private var velocityX = 0.0, velocityY = 0.0

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
        snapshot = Snapshot()
        snapshot.size = parameters.size
    }

    public mutating func observe(_ sample: MotionSample, motion: FusedMotion, shake: Shake?) {}

    /// Takes the tilt from `gravity` (board frame, from the neutral).
    mutating func feel(_ gravity: Vector3) {
        // Downhill on screen: the right edge lowered pulls right (+x), the top edge lowered pulls up (−y).
        snapshot.tiltX = gravity.x / standardGravity
        snapshot.tiltY = -gravity.y / standardGravity
        let g = gravity.length
        if g > 0 { snapshot.leanDegrees = acos(min(1, max(-1, -gravity.z / g))) * 180 / .pi }
    }

    public mutating func apply(_ command: Command) {
        switch command {
        case .centre:
            snapshot.x = 0.5
            snapshot.y = 0.5
            velocityX = 0
            velocityY = 0
        }
    }

    public mutating func step(dt: Double, gravity: Vector3) {
        feel(gravity)
        guard dt > 0 else { return }
        let frames = dt * 60   // the tutorial's steps this tick stands for
        let keep = pow(parameters.deceleration, frames)
        let limit = parameters.maximumVelocity
        velocityX = min(limit, max(-limit, velocityX * keep + snapshot.tiltX * parameters.sensitivity * 60 * frames))
        velocityY = min(limit, max(-limit, velocityY * keep + snapshot.tiltY * parameters.sensitivity * 60 * frames))
        let half = parameters.size / 2
        (snapshot.x, velocityX) = Self.move(snapshot.x, velocityX, dt, low: half, high: 1 - half)
        (snapshot.y, velocityY) = Self.move(snapshot.y, velocityY, dt, low: half, high: 1 - half)
    }

    private static func move(_ p: Double, _ v: Double, _ dt: Double, low: Double, high: Double) -> (Double, Double) {
        let next = p + v * dt
        if next < low { return (low, abs(v) * 0.5) }
        if next > high { return (high, -abs(v) * 0.5) }
        return (next, v)
    }
}
