// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A virtual board tilted by hand: the physics behind the simulated sensor.
///
/// Two angles describe the tilt: `roll` lowers the right edge (positive) or the
/// left edge (negative); `pitch` lowers the top edge (positive) or the bottom
/// edge. The board turns towards the commanded angles at a limited rate, as a
/// hand would, and each `advance` returns what an IMU glued to it would read:
/// the specific force (minus gravity in the board's frame) and the angular
/// velocity that turns one reading's gravity direction into the next.
public struct TiltBoard: Sendable {
    /// Largest tilt either way, radians.
    public var maxTilt: Double = 30 * .pi / 180
    /// How fast the board turns towards its commanded tilt, rad/s.
    public var slewRate: Double = 120 * .pi / 180

    public private(set) var roll: Double = 0
    public private(set) var pitch: Double = 0
    public var targetRoll: Double = 0 { didSet { targetRoll = clamp(targetRoll) } }
    public var targetPitch: Double = 0 { didSet { targetPitch = clamp(targetPitch) } }

    public init() {}

    /// Gravity as seen from the board, m/s², for a tilt of (`roll`, `pitch`):
    /// unit length times g, pointing into the screen when level.
    public static func gravity(roll: Double, pitch: Double) -> Vector3 {
        Vector3(sin(roll), sin(pitch) * cos(roll), -cos(roll) * cos(pitch)) * standardGravity
    }

    /// Moves the board `dt` seconds on and returns the IMU reading at the new pose.
    public mutating func advance(by dt: Double, timestamp: Int64) -> MotionSample {
        let before = Self.gravity(roll: roll, pitch: pitch)
        let step = slewRate * dt
        roll += max(-step, min(step, targetRoll - roll))
        pitch += max(-step, min(step, targetPitch - pitch))
        let after = Self.gravity(roll: roll, pitch: pitch)

        // The board's frame turns with ω; a world-fixed vector seen from it
        // changes as ġ = -ω × g. The smallest ω doing that (no spin about g,
        // which a tilt by hand does not have) is ω = (ġ × g) / |g|².
        var omega = Vector3.zero
        if dt > 0 {
            let gDot = (after - before) / dt
            let mid = (after + before) * 0.5
            omega = gDot.cross(mid) / mid.dot(mid)
        }
        // `zero - v` rather than `-v`: a level board reads +0.0, not -0.0, on x and y.
        return MotionSample(timestamp: timestamp, acceleration: .zero - after, rotationRate: omega + .zero,
                            fields: [.acceleration, .rotationRate])
    }

    private func clamp(_ angle: Double) -> Double { max(-maxTilt, min(maxTilt, angle)) }
}
