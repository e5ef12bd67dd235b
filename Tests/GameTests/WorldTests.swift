// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
@testable import Game
import LibC

/// Gravity in the board's frame for a board whose right edge is lowered by `angle`.
func gravity(right angle: Double = 0, up pitch: Double = 0) -> Vector3 {
    TiltBoard.gravity(roll: angle, pitch: pitch)
}

let corridor = try! LevelParser(file: "corridor").parse("""
    maze:
    ############
    #S        E#
    ############
    """)

let openRoom = try! LevelParser(file: "room").parse("""
    maze:
    ##########
    #        #
    #   S    #
    #        #
    #       E#
    ##########
    """)

@Suite("World physics")
struct WorldTests {
    @Test("a level board leaves the ball where it is")
    func levelBoardStill() {
        var w = World(level: openRoom, dt: 1.0 / 240)
        for _ in 0..<240 { w.step(gravity: gravity()) }
        #expect(w.ball == openRoom.startPoint)
        #expect(w.velocity == .zero)
    }

    @Test("the ball accelerates towards the lowered edge: right, left, up the screen, down the screen")
    func rollsDownhill() {
        let cases: [(Vector3, (Point) -> Bool)] = [
            (gravity(right: 0.3), { $0.x > 0 && abs($0.y) < 1e-12 }),
            (gravity(right: -0.3), { $0.x < 0 && abs($0.y) < 1e-12 }),
            (gravity(up: 0.3), { $0.y < 0 && abs($0.x) < 1e-12 }),     // top edge down: up the screen
            (gravity(up: -0.3), { $0.y > 0 && abs($0.x) < 1e-12 }),
        ]
        for (g, check) in cases {
            var w = World(level: openRoom, dt: 1.0 / 240)
            w.step(gravity: g)
            let v = w.velocity
            #expect(check(v), "gravity \(g) gave velocity \(v)")
        }
    }

    @Test("acceleration follows tilt gain, friction slows it, top speed caps it")
    func accelerationFrictionTopSpeed() {
        var p = PhysicsParameters()
        p.friction = 0
        var w = World(level: openRoom, parameters: p, dt: 0.01)
        w.step(gravity: Vector3(1, 0, -9))
        #expect(abs(w.velocity.x - p.tiltGain * 0.01) < 1e-12)

        p.friction = 0.5
        var f = World(level: openRoom, parameters: p, dt: 0.01)
        f.step(gravity: Vector3(1, 0, -9))
        #expect(abs(f.velocity.x - p.tiltGain * 0.01 * (1 - 0.5 * 0.01)) < 1e-12)

        p.maxSpeed = 1
        var capped = World(level: corridor, parameters: p, dt: 0.01)
        for _ in 0..<20 { capped.step(gravity: Vector3(9.8, 0, 0)) }
        #expect(abs(capped.velocity.x - 1) < 1e-9)
    }

    @Test("hitting a wall stops the ball flush against it and bounces it back at half speed")
    func bounce() {
        var p = PhysicsParameters()
        p.friction = 0
        var w = World(level: corridor, parameters: p, dt: 1.0 / 240)
        // Roll left into the wall beside the start.
        var before = w.velocity
        while w.velocity.x <= 0 {
            before = w.velocity
            w.step(gravity: Vector3(-4.9, 0, -8.5))
        }
        #expect(w.ball.x >= 1 + p.ballRadius)
        #expect(w.ball.x < 1 + p.ballRadius + 1e-6)
        // Reversed at half the speed it hit with (plus this step's own push).
        let expected = -(before.x - 4.9 * p.tiltGain / 240) * p.bounce
        #expect(abs(w.velocity.x - expected) < 1e-9)
    }

    @Test("the ball never passes through a wall, at any speed and any step")
    func noTunnelling() {
        var p = PhysicsParameters()
        p.maxSpeed = 10_000
        p.friction = 0
        p.tiltGain = 1_000
        for dt in [1.0 / 240, 1.0 / 30, 0.5] {
            var w = World(level: openRoom, parameters: p, dt: dt)
            for i in 0..<500 {
                let a = Double(i) * 0.7
                w.step(gravity: Vector3(9.8 * cos(a), 9.8 * sin(a), -1))
                let b = w.ball, r = p.ballRadius
                for (cx, cy) in [(b.x - r, b.y - r), (b.x + r - 1e-12, b.y - r), (b.x - r, b.y + r - 1e-12), (b.x + r - 1e-12, b.y + r - 1e-12)] {
                    #expect(!openRoom.isWall(Int(cx.rounded(.down)), Int(cy.rounded(.down))),
                            "dt \(dt), step \(i): ball at \(b) overlaps a wall")
                }
                if w.status == .won { w.restart() }
            }
        }
    }

    @Test("a wall many cells away stops a huge single move at the first wall")
    func sweepStopsAtFirstWall() {
        let r = WallSweep.sweep(corridor, along: .x, center: 1.5, delta: 1_000, across: 1.5, radius: 0.3)
        #expect(r.hit)
        #expect(abs(r.position - (11 - 0.3)) < 1e-6)
        let l = WallSweep.sweep(corridor, along: .x, center: 5.5, delta: -1_000, across: 1.5, radius: 0.3)
        #expect(l.hit)
        #expect(abs(l.position - (1 + 0.3)) < 1e-6)
        let down = WallSweep.sweep(corridor, along: .y, center: 1.5, delta: 0.5, across: 4.5, radius: 0.3)
        #expect(down.hit)
        #expect(abs(down.position - (2 - 0.3)) < 1e-6)
        let free = WallSweep.sweep(corridor, along: .x, center: 3.5, delta: 0.2, across: 1.5, radius: 0.3)
        #expect(!free.hit && free.position == 3.7)
    }

    @Test("reaching an exit wins and stops the clock")
    func win() {
        var w = World(level: corridor, dt: 1.0 / 240)
        var steps = 0
        while w.status != .won && steps < 240 * 20 {
            w.step(gravity: gravity(right: 0.4))
            steps += 1
        }
        #expect(w.status == .won)
        let t = w.elapsed
        w.step(gravity: gravity(right: 0.4))
        #expect(w.elapsed == t)
        #expect(t > 0.5)
        w.restart()
        #expect(w.status == .playing && w.elapsed == 0 && w.ball == corridor.startPoint)
    }

    @Test("pausing freezes the ball and the clock")
    func pause() {
        var w = World(level: openRoom, dt: 1.0 / 240)
        w.step(gravity: gravity(right: 0.3))
        w.setPaused(true)
        let ball = w.ball, t = w.elapsed
        for _ in 0..<100 { w.step(gravity: gravity(right: 0.3)) }
        #expect(w.ball == ball && w.elapsed == t && w.status == .paused)
        w.setPaused(false)
        w.step(gravity: gravity(right: 0.3))
        #expect(w.ball.x > ball.x)
    }

    @Test("ghosts patrol out and back between two waypoints, and round a loop of more")
    func ghostPatrol() {
        let two = GhostPatrol(GhostPath(waypoints: [(1, 1), (4, 1)], speed: 1))
        #expect(two.loopLength == 6)
        #expect(two.position(at: 0) == Point(1.5, 1.5))
        #expect(two.position(at: 3) == Point(4.5, 1.5))
        #expect(two.position(at: 4.5) == Point(3, 1.5))
        #expect(two.position(at: 6) == Point(1.5, 1.5))
        let loop = GhostPatrol(GhostPath(waypoints: [(1, 1), (3, 1), (3, 2), (1, 2)], speed: 1))
        #expect(loop.loopLength == 6)
        #expect(loop.position(at: 2.5) == Point(3.5, 2))
        #expect(loop.position(at: 5.5) == Point(1.5, 2))
    }

    @Test("the same gravity sequence gives the same game, bit for bit")
    func deterministic() {
        func play() -> [Point] {
            var w = World(level: BundledLevels.defaultLevel(), dt: 1.0 / 240)
            var trace: [Point] = []
            for i in 0..<2000 {
                let a = Double(i) / 50
                w.step(gravity: gravity(right: 0.4 * sin(a), up: 0.4 * cos(a * 0.7)))
                trace.append(w.ball)
            }
            return trace
        }
        #expect(play() == play())
    }
}


@Test("a snapshot has room for every ghost a level may have")
func snapshotHoldsMaxGhosts() {
    #expect(WorldSnapshot().ghosts.count == Level.maxGhosts)
}
