// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import LibC

/// How the player looks as it moves, kept by the world so a replay draws
/// the same: which way pacman faces (eased, never snapped, as the tutorial
/// turns its sprite), how far its mouth is open (chomping faster the faster
/// it goes), and where a mark on the ball's surface has rolled to.
public struct PlayerMotion: BitwiseCopyable, Sendable, Equatable {
    /// Facing, radians on the screen: 0 = right, π/2 = down.
    public var facing: Double = 0
    /// Chomp phase, radians in [0, 2π).
    public var mouthPhase: Double = 0
    /// A point on the ball's surface, a unit vector: x right, y down, z into
    /// the screen (the viewer sees z < 0). Starts facing the viewer.
    public var mark = Vector3(0, 0, -1)

    public init() {}

    /// Seconds for the facing to cover about two thirds of a turn.
    static let turnTime = 0.08
    /// Below this speed (cells/s) pacman keeps facing where it was.
    static let turningSpeed = 0.5
    /// Chomps per cell travelled, and at most per second (faster would alias at 60 frames a second).
    static let chompsPerCell = 0.8
    static let maxChompsPerSecond = 6.0

    /// Mouth opening, 0 (shut) to 1 (open widest); open wide at rest, as pacman is drawn.
    public var mouth: Double {
        let s = mouthPhase < Double.pi ? mouthPhase : mouthPhase - Double.pi
        // A triangle wave: closes and opens at an even pace, as arcade pacman does.
        return abs(2 * s / Double.pi - 1)
    }

    /// Follows a step that moved the player by (dx, dy) cells at `velocity`
    /// (cells/s) over `dt`, for a ball of `radius` cells.
    mutating func advance(dx: Double, dy: Double, velocity: Point, radius: Double, dt: Double) {
        let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        if speed > Self.turningSpeed {
            let target = atan2(velocity.y, velocity.x)
            var turn = target - facing
            if turn > Double.pi { turn -= 2 * Double.pi } else if turn < -Double.pi { turn += 2 * Double.pi }
            facing += turn * min(1, dt / Self.turnTime)
            if facing > Double.pi { facing -= 2 * Double.pi } else if facing < -Double.pi { facing += 2 * Double.pi }
        }
        let chomps = min(speed * Self.chompsPerCell, Self.maxChompsPerSecond)
        mouthPhase = (mouthPhase + chomps * dt * Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi)

        // Rolling without slipping: the face towards the viewer moves with the
        // ball, so the axis is (dy, -dx, 0) and the angle distance / radius.
        let distance = (dx * dx + dy * dy).squareRoot()
        guard distance > 0, radius > 0 else { return }
        let axis = Vector3(dy / distance, -dx / distance, 0)
        let angle = distance / radius
        let (sinA, cosA) = (sin(angle), cos(angle))
        // Rodrigues: v cos + (k × v) sin + k (k·v)(1 − cos).
        let rolled = mark * cosA + axis.cross(mark) * sinA + axis * (axis.dot(mark) * (1 - cosA))
        // Renormalised so rounding cannot grow or shrink the mark over a long game.
        mark = rolled / rolled.dot(rolled).squareRoot()
    }
}
