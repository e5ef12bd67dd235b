// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// The game's state and rules, advanced in fixed steps.
///
/// Deterministic: `step` reads no clock and no global state, so the same
/// level, parameters and sequence of gravity vectors give the same game, bit
/// for bit (the basis of record and replay).
///
/// The rules: walls reverse the axis that hits them at half speed; a ghost
/// touch costs a life and puts the player back at the start with a grace
/// time in which no ghost can touch again; the last life lost ends the game
/// (`.lost`); pellets score; an exit wins, once open (a level may keep its
/// exits shut until every pellet is eaten).
public struct World: Sendable {
    public let level: Level
    public var parameters: PhysicsParameters
    public let rules: GameRules
    public let dt: Double

    public private(set) var ball: Point
    public private(set) var velocity: Point = .zero
    public private(set) var status: GameStatus = .playing
    public private(set) var tick: UInt64 = 0
    /// Ticks played while not paused and not over.
    public private(set) var playTicks: UInt64 = 0
    public private(set) var catches = 0
    public private(set) var lives: Int
    public private(set) var score = 0
    public private(set) var pellets: PelletSet
    public private(set) var caughtFlash = 0
    /// Ticks left in which no ghost can touch the player.
    public private(set) var grace = 0
    public private(set) var player = PlayerMotion()
    private let patrols: [GhostPatrol]

    /// - Parameter dt: the fixed step, seconds.
    public init(level: Level, parameters: PhysicsParameters = PhysicsParameters(), rules: GameRules = GameRules(), dt: Double) {
        precondition(dt > 0, "the step must be positive")
        precondition(rules.lives >= 1, "a game needs a life")
        self.level = level
        self.parameters = parameters
        self.rules = rules
        self.dt = dt
        self.ball = level.startPoint
        self.lives = rules.lives
        self.pellets = PelletSet(all: level.pellets.count)
        self.patrols = level.ghosts.map(GhostPatrol.init)
    }

    public var elapsed: Double { Double(playTicks) * dt }

    /// Whether reaching an exit wins now.
    public var exitOpen: Bool { !level.exitNeedsAllPellets || pellets.isEmpty }

    /// Where ghost `index` is now.
    public func ghost(_ index: Int) -> Point {
        let p = patrols[index]
        return p.position(at: p.speed * elapsed)
    }

    public mutating func setPaused(_ paused: Bool) {
        if paused, status == .playing { status = .paused }
        if !paused, status == .paused { status = .playing }
    }

    /// A new game of the same level: ball still at the start, every life and
    /// pellet back, clock and ghosts reset.
    public mutating func restart() {
        ball = level.startPoint
        velocity = .zero
        status = .playing
        playTicks = 0
        catches = 0
        lives = rules.lives
        score = 0
        pellets = PelletSet(all: level.pellets.count)
        caughtFlash = 0
        grace = 0
        player = PlayerMotion()
    }

    /// One fixed step with `gravity` in the board's frame (m/s²).
    public mutating func step(gravity: Vector3) {
        tick &+= 1
        guard status == .playing else { return }
        playTicks &+= 1
        if caughtFlash > 0 { caughtFlash -= 1 }
        if grace > 0 { grace -= 1 }

        let p = parameters
        // Board x is screen x; board y points up the screen, world y down it.
        var vx = velocity.x + gravity.x * p.tiltGain * dt
        var vy = velocity.y - gravity.y * p.tiltGain * dt
        let damping = max(0, 1 - p.friction * dt)
        vx *= damping
        vy *= damping
        let speed = (vx * vx + vy * vy).squareRoot()
        if speed > p.maxSpeed {
            vx *= p.maxSpeed / speed
            vy *= p.maxSpeed / speed
        }

        let before = ball
        let moveX = WallSweep.sweep(level, along: .x, center: ball.x, delta: vx * dt, across: ball.y, radius: p.ballRadius)
        ball.x = moveX.position
        if moveX.hit { vx = -vx * p.bounce }
        let moveY = WallSweep.sweep(level, along: .y, center: ball.y, delta: vy * dt, across: ball.x, radius: p.ballRadius)
        ball.y = moveY.position
        if moveY.hit { vy = -vy * p.bounce }
        velocity = Point(vx, vy)
        player.advance(dx: ball.x - before.x, dy: ball.y - before.y, velocity: velocity, radius: p.ballRadius, dt: dt)

        let column = Int(ball.x.rounded(.down)), row = Int(ball.y.rounded(.down))
        if let pellet = level.pellet(column, row), pellets.remove(pellet) {
            score += rules.pelletPoints
        }
        if level.cell(column, row) == .exit, exitOpen {
            status = .won
            velocity = .zero
            return
        }

        guard grace == 0 else { return }
        let reach = p.ballRadius + p.ghostRadius
        for i in patrols.indices {
            let g = ghost(i)
            let dx = g.x - ball.x, dy = g.y - ball.y
            if dx * dx + dy * dy < reach * reach {
                caught()
                break
            }
        }
    }

    private mutating func caught() {
        catches += 1
        lives -= 1
        caughtFlash = Int((rules.caughtFlashTime / dt).rounded())
        velocity = .zero
        guard lives > 0 else {
            // The ball stays where it was caught, so the last picture shows how.
            status = .lost
            return
        }
        ball = level.startPoint
        grace = Int((rules.graceTime / dt).rounded())
    }

    /// The state as the renderer wants it.
    public func snapshot(into s: inout WorldSnapshot) {
        s.tick = tick
        s.status = status
        s.ball = ball
        s.velocity = velocity
        s.ghostCount = patrols.count
        for i in patrols.indices {
            let p = patrols[i]
            (s.ghosts[i], s.ghostHeadings[i]) = p.place(at: p.speed * elapsed)
        }
        s.ballRadius = parameters.ballRadius
        s.ghostRadius = parameters.ghostRadius
        s.elapsed = elapsed
        s.catches = catches
        s.caughtFlash = caughtFlash
        s.lives = lives
        s.score = score
        s.pellets = pellets
        s.exitOpen = exitOpen
        s.grace = grace
        s.player = player
    }
}
