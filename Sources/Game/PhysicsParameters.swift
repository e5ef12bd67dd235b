// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// The feel of the board. Units are maze cells and seconds.
public struct PhysicsParameters: Sendable, Equatable {
    /// Ball acceleration per m/s² of in-plane gravity, cells/s² per m/s².
    /// At the default 3 a 30° tilt (4.9 m/s² in the plane) gives ~15 cells/s².
    public var tiltGain: Double = 3
    /// Rolling friction: the fraction of speed lost per second.
    public var friction: Double = 0.8
    /// Top speed, cells/s.
    public var maxSpeed: Double = 14
    /// Half the side of the ball's square hit box, cells.
    public var ballRadius: Double = 0.3
    /// Speed kept, reversed, along the axis that hits a wall (the tutorials' "bounce at half speed").
    public var bounce: Double = 0.5
    /// Radius within which a ghost catches the ball (centre to centre minus the ball's radius), cells.
    public var ghostRadius: Double = 0.35

    public init() {}
}
