// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
@testable import Game

/// Steps `world` with `g` until `done` holds, at most `seconds` of game time; whether it held.
@discardableResult
func run(_ world: inout World, _ g: Vector3, seconds: Double = 20, until done: (World) -> Bool) -> Bool {
    for _ in 0 ..< Int(seconds / world.dt) {
        if done(world) { return true }
        world.step(gravity: g)
    }
    return done(world)
}

@Suite("Game rules: lives, grace, game over, pellets, the exit")
struct GameRulesTests {
    let dt = 1.0 / 240

    /// A ghost standing still on the start cell (both waypoints the same cell is not a
    /// legal patrol, so it paces one cell): the start is as dangerous as it gets.
    let ghostAtStart = try! LevelParser(file: "ghost at start").parse("""
        ghost: 1,1 -> 2,1 speed 0.1
        maze:
        ############
        #S        E#
        ############
        """)

    @Test("a ghost touch costs a life, sends the player to the start still, and flashes")
    func touchCostsALife() throws {
        let level = try LevelParser(file: "ghost").parse("""
            ghost: 6,1 -> 9,1 speed 0.1
            maze:
            ############
            #S        E#
            ############
            """)
        var w = World(level: level, dt: dt)
        #expect(w.lives == 3)
        #expect(run(&w, gravity(right: 0.2)) { $0.catches > 0 })
        #expect(w.lives == 2)
        #expect(w.ball == level.startPoint && w.velocity == .zero)
        #expect(w.caughtFlash > 0 && w.grace > 0)
        #expect(w.status == .playing)
    }

    @Test("a ghost at the start: the grace lets the player get away, then it can touch again")
    func graceAtStart() {
        var w = World(level: ghostAtStart, dt: dt)
        // The first touch comes at once: the ghost is on the start.
        w.step(gravity: gravity())
        #expect(w.catches == 1 && w.lives == 2)
        let graceTicks = w.grace
        #expect(abs(Double(graceTicks) * dt - GameRules().graceTime) < dt)
        // Still on the ghost through the whole grace: no second touch.
        for _ in 0 ..< graceTicks - 1 { w.step(gravity: gravity()) }
        #expect(w.catches == 1)
        w.step(gravity: gravity())
        w.step(gravity: gravity())
        #expect(w.catches == 2 && w.lives == 1)
    }

    @Test("rolling away during the grace escapes a ghost on the start")
    func escapeDuringGrace() {
        var w = World(level: ghostAtStart, dt: dt)
        w.step(gravity: gravity())
        #expect(w.catches == 1)
        #expect(run(&w, gravity(right: 0.5)) { $0.status == .won })
        #expect(w.catches == 1 && w.lives == 2)
    }

    @Test("losing the last life ends the game where it happened; the clock stops; restart gives every life back")
    func lastLife() {
        var rules = GameRules()
        rules.lives = 2
        var w = World(level: ghostAtStart, rules: rules, dt: dt)
        #expect(run(&w, gravity()) { $0.status == .lost })
        #expect(w.catches == 2 && w.lives == 0)
        let t = w.elapsed, ball = w.ball
        for _ in 0 ..< 100 { w.step(gravity: gravity(right: 0.5)) }
        #expect(w.elapsed == t && w.ball == ball && w.status == .lost)
        w.restart()
        #expect(w.status == .playing && w.lives == 2 && w.catches == 0 && w.elapsed == 0 && w.grace == 0)
    }

    @Test("pellets are eaten by rolling over them, once each, and score")
    func pelletsScore() throws {
        let level = try LevelParser(file: "pellets").parse("""
            maze:
            ############
            #S o o o  E#
            ############
            """)
        #expect(level.pellets.count == 3)
        var w = World(level: level, dt: dt)
        #expect(w.pellets.count == 3 && w.score == 0)
        #expect(run(&w, gravity(right: 0.3)) { $0.status == .won })
        #expect(w.pellets.isEmpty && w.score == 3 * GameRules().pelletPoints)
        w.restart()
        #expect(w.pellets.count == 3 && w.score == 0)
    }

    @Test("an exit that needs every pellet does not win until they are eaten, then does")
    func exitAfterPellets() throws {
        // The pellet is behind the start: roll right to the shut exit, back left for the pellet, right again.
        let level = try LevelParser(file: "locked").parse("""
            exit: after pellets
            maze:
            ############
            #oS       E#
            ############
            """)
        #expect(level.exitNeedsAllPellets)
        var w = World(level: level, dt: dt)
        #expect(!w.exitOpen)
        #expect(run(&w, gravity(right: 0.4), seconds: 4) { $0.ball.x > 10 })
        for _ in 0 ..< 240 { w.step(gravity: gravity(right: 0.4)) }
        #expect(w.status == .playing, "the shut exit does not win")
        #expect(run(&w, gravity(right: -0.5)) { $0.pellets.isEmpty })
        #expect(w.exitOpen)
        #expect(run(&w, gravity(right: 0.5)) { $0.status == .won })
    }

    @Test("a corner hit reverses both axes, and the ball stays flush in the corner, never in a wall")
    func cornerHit() throws {
        let level = try LevelParser(file: "corner").parse("""
            maze:
            ######
            #    #
            # S  #
            #   E#
            ######
            """)
        var p = PhysicsParameters()
        p.friction = 0
        var w = World(level: level, parameters: p, dt: dt)
        var reversedX = false, reversedY = false
        var lastVelocity = Point.zero
        for _ in 0 ..< Int(3 / dt) {
            w.step(gravity: gravity(right: -0.3, up: 0.3))
            #expect(w.ball.x >= 1 + p.ballRadius - 1e-9 && w.ball.y >= 1 + p.ballRadius - 1e-9, "inside the wall at \(w.ball)")
            if lastVelocity.x < 0 && w.velocity.x > 0 { reversedX = true }
            if lastVelocity.y < 0 && w.velocity.y > 0 { reversedY = true }
            lastVelocity = w.velocity
        }
        #expect(reversedX && reversedY)
        // Held into the corner, it comes to rest there.
        #expect(abs(w.ball.x - (1 + p.ballRadius)) < 0.05 && abs(w.ball.y - (1 + p.ballRadius)) < 0.05)
    }

    @Test("the walls' bounce keeps half the speed on the axis that hit")
    func bounceHalfSpeed() {
        var p = PhysicsParameters()
        p.friction = 0
        var w = World(level: corridor, parameters: p, dt: dt)
        var before = 0.0
        let bounced = run(&w, gravity(right: -0.3), seconds: 3) { world in
            if world.velocity.x < 0 { before = world.velocity.x }
            return world.velocity.x > 0
        }
        #expect(bounced)
        // The bouncing step adds its gravity, then reverses and halves.
        let expected = -(before + gravity(right: -0.3).x * p.tiltGain * dt) * p.bounce
        #expect(abs(w.velocity.x - expected) < 1e-9)
    }

    @Test("pacman turns towards his motion gradually, and chomps faster when faster")
    func pacmanMotion() {
        var m = PlayerMotion()
        m.advance(dx: 0, dy: 0.01, velocity: Point(0, 3), radius: 0.3, dt: dt)
        #expect(m.facing > 0 && m.facing < Double.pi / 2 * 0.2, "eased, not snapped: \(m.facing)")
        for _ in 0 ..< 240 { m.advance(dx: 0, dy: 0.01, velocity: Point(0, 3), radius: 0.3, dt: dt) }
        #expect(abs(m.facing - Double.pi / 2) < 1e-3)
        // Turning from down to up goes the short way round, not through a snap.
        var slow = PlayerMotion(), fast = PlayerMotion()
        for _ in 0 ..< 24 {
            slow.advance(dx: 0.005, dy: 0, velocity: Point(1, 0), radius: 0.3, dt: dt)
            fast.advance(dx: 0.02, dy: 0, velocity: Point(4, 0), radius: 0.3, dt: dt)
        }
        #expect(fast.mouthPhase > slow.mouthPhase * 3)
        var still = PlayerMotion()
        still.advance(dx: 0, dy: 0, velocity: .zero, radius: 0.3, dt: dt)
        #expect(still.mouthPhase == 0 && still.facing == 0)
    }

    @Test("the ball's mark rolls with it: forward across its face, and a full turn after 2πr")
    func ballRolls() {
        var m = PlayerMotion()
        m.advance(dx: 0.05, dy: 0, velocity: Point(3, 0), radius: 0.3, dt: dt)
        #expect(m.mark.x > 0 && m.mark.z < 0, "moving right carries the face right: \(m.mark)")
        var full = PlayerMotion()
        let steps = 1000, circumference = 2 * Double.pi * 0.3
        for _ in 0 ..< steps { full.advance(dx: 0, dy: circumference / Double(steps), velocity: Point(0, 3), radius: 0.3, dt: dt) }
        #expect(abs(full.mark.x) < 1e-6 && abs(full.mark.y) < 1e-6 && abs(full.mark.z + 1) < 1e-6)
    }

    @Test("a pellet set holds up to 256 and counts them")
    func pelletSet() {
        var s = PelletSet(all: 200)
        #expect(s.count == 200 && s.contains(199) && !s.contains(200))
        #expect(s.remove(130) && !s.remove(130))
        #expect(s.count == 199 && !s.contains(130))
        #expect(PelletSet(all: 256).count == 256 && PelletSet(all: 0).isEmpty)
    }
}
