// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// Where the game stands.
public enum GameStatus: UInt8, Sendable, BitwiseCopyable {
    case playing
    case paused
    case won
    /// The last life was lost.
    case lost
}

/// Everything the renderer needs from one physics tick, by value: the physics
/// thread publishes it through a `LatestValue` and goes on without waiting.
public struct WorldSnapshot: BitwiseCopyable, Sendable {
    public var tick: UInt64 = 0
    public var status: GameStatus = .playing
    public var ball: Point = .zero
    public var velocity: Point = .zero
    public var ghostCount: Int = 0
    /// Inline so the snapshot stays bitwise-copyable; 16 is `Level.maxGhosts` (a test keeps them equal).
    public var ghosts: InlineArray<16, Point> = .init(repeating: .zero)
    /// The way each ghost is going: a unit vector along its leg.
    public var ghostHeadings: InlineArray<16, Point> = .init(repeating: .zero)
    /// The sizes the physics uses, cells: what the renderers draw.
    public var ballRadius: Double = PhysicsParameters().ballRadius
    public var ghostRadius: Double = PhysicsParameters().ghostRadius
    /// Seconds played (stops at the win).
    public var elapsed: Double = 0
    /// Times a ghost caught the ball.
    public var catches: Int = 0
    /// Ticks left of the "caught!" flash.
    public var caughtFlash: Int = 0
    /// Lives left (the HUD) and points scored.
    public var lives: Int = GameRules().lives
    public var score: Int = 0
    /// The pellets not yet eaten.
    public var pellets = PelletSet()
    /// Whether the exits win now (a level may shut them until every pellet is eaten).
    public var exitOpen = true
    /// Ticks left of the grace after a ghost touch (the player blinks).
    public var grace: Int = 0
    /// Facing, mouth and rolling, for drawing the player.
    public var player = PlayerMotion()
    /// Samples a second reaching the physics, measured over the last second or so; 0 before the first.
    public var sensorRate: Double = 0
    /// Gravity in the board's frame, m/s², as the physics used it (seen from the neutral tilt).
    public var gravity: Vector3 = .zero
    // Loop health, for the status line and benchmarks.
    public var samplesDrained: UInt64 = 0
    public var samplesDropped: Int = 0
    /// Times the loop fell further behind than its catch-up bound and dropped time.
    public var overruns: UInt64 = 0
    /// Timestamp (monotonic ns) of the newest sample used.
    public var lastSampleTime: Int64 = 0

    public init() {}
}
