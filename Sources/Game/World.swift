import MotionCore

/// The game's state and rules, advanced in fixed steps.
///
/// Deterministic: `step` reads no clock and no global state, so the same
/// level, parameters and sequence of gravity vectors give the same game, bit
/// for bit (the basis of record and replay).
public struct World: Sendable {
    public let level: Level
    public var parameters: PhysicsParameters
    public let dt: Double

    public private(set) var ball: Point
    public private(set) var velocity: Point = .zero
    public private(set) var status: GameStatus = .playing
    public private(set) var tick: UInt64 = 0
    /// Ticks played while not paused and not won.
    public private(set) var playTicks: UInt64 = 0
    public private(set) var catches = 0
    public private(set) var caughtFlash = 0
    private let patrols: [GhostPatrol]

    /// - Parameter dt: the fixed step, seconds.
    public init(level: Level, parameters: PhysicsParameters = PhysicsParameters(), dt: Double) {
        precondition(dt > 0, "the step must be positive")
        self.level = level
        self.parameters = parameters
        self.dt = dt
        self.ball = level.startPoint
        self.patrols = level.ghosts.map(GhostPatrol.init)
    }

    public var elapsed: Double { Double(playTicks) * dt }

    /// Where ghost `index` is now.
    public func ghost(_ index: Int) -> Point {
        let p = patrols[index]
        return p.position(at: p.speed * elapsed)
    }

    public mutating func setPaused(_ paused: Bool) {
        if paused, status == .playing { status = .paused }
        if !paused, status == .paused { status = .playing }
    }

    /// Back to the start: ball still, clock and ghosts reset.
    public mutating func restart() {
        ball = level.startPoint
        velocity = .zero
        status = .playing
        playTicks = 0
        catches = 0
        caughtFlash = 0
    }

    /// One fixed step with `gravity` in the board's frame (m/s²).
    public mutating func step(gravity: Vector3) {
        tick &+= 1
        guard status == .playing else { return }
        playTicks &+= 1
        if caughtFlash > 0 { caughtFlash -= 1 }

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

        let moveX = WallSweep.sweep(level, along: .x, center: ball.x, delta: vx * dt, across: ball.y, radius: p.ballRadius)
        ball.x = moveX.position
        if moveX.hit { vx = -vx * p.bounce }
        let moveY = WallSweep.sweep(level, along: .y, center: ball.y, delta: vy * dt, across: ball.x, radius: p.ballRadius)
        ball.y = moveY.position
        if moveY.hit { vy = -vy * p.bounce }
        velocity = Point(vx, vy)

        if level.cell(Int(ball.x.rounded(.down)), Int(ball.y.rounded(.down))) == .exit {
            status = .won
            velocity = .zero
            return
        }

        let reach = p.ballRadius + p.ghostRadius
        for i in patrols.indices {
            let g = ghost(i)
            let dx = g.x - ball.x, dy = g.y - ball.y
            if dx * dx + dy * dy < reach * reach {
                catches += 1
                caughtFlash = Int((0.6 / dt).rounded())
                ball = level.startPoint
                velocity = .zero
                break
            }
        }
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
    }
}
