// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// A small simulation driven by the fused motion at a fixed rate: the
/// calibration screen's test square, ColorTilt's colour. `MotionModelLoop`
/// runs one on a thread of its own, as `PhysicsLoop` runs the maze.
public protocol MotionModel: Sendable {
    /// What the screen draws, published after every tick.
    associatedtype Snapshot: BitwiseCopyable & Sendable
    /// What the screen asks of the model between ticks.
    associatedtype Command: BitwiseCopyable & Sendable

    /// One sample's fused motion, and the shake it completed if any. Model thread only.
    mutating func observe(_ sample: MotionSample, motion: FusedMotion, shake: Shake?)
    /// Moves on by `dt` seconds, with gravity as now estimated and seen
    /// from the player's neutral tilt (so a new neutral shows at once).
    mutating func step(dt: Double, gravity: Vector3)
    mutating func apply(_ command: Command)
    var snapshot: Snapshot { get }
}
