// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import Handoff
import Realtime
import TestSupport
@testable import Game

@Suite("Fixed-step loop")
struct PhysicsLoopTests {
    @Test("the clock asks for one step per step of elapsed time and carries the remainder")
    func fixedStepClock() {
        var c = FixedStepClock(step: 100, maxSteps: 5)
        #expect(c.advance(by: 99) == 0)
        #expect(c.advance(by: 1) == 1)
        #expect(c.advance(by: 250) == 2)
        #expect(c.accumulator == 50)
        #expect(c.advance(by: 50) == 1)
    }

    @Test("catch-up is bounded: a long stall takes at most maxSteps and drops the rest")
    func boundedCatchUp() {
        var c = FixedStepClock(step: 100, maxSteps: 5)
        #expect(c.advance(by: 10_000) == 5)
        #expect(c.overruns == 1)
        #expect(c.droppedSteps == 95)
        #expect(c.accumulator == 0)
        #expect(c.advance(by: -50) == 0)
    }

    @Test("a tick drains every waiting sample, steps the world and publishes a snapshot")
    func tickDrainsAndPublishes() {
        let ring = SPSCRing<MotionSample>(capacity: 16)
        let loop = PhysicsLoop(level: openRoom, samples: ring, rate: 100, estimator: TiltEstimator(cutoffHz: 1000))
        let f = -gravity(right: 0.4)
        for i in 0..<5 { ring.push(MotionSample(timestamp: Int64(i) * 1_000_000, acceleration: f, fields: .acceleration)) }
        loop.tick(elapsed: 10_000_000)
        #expect(ring.isEmpty)
        let (s, isNew) = loop.snapshots.read()
        #expect(isNew)
        #expect(s.samplesDrained == 5)
        #expect(s.tick == 1)
        #expect(s.velocity.x > 0)
        #expect(s.lastSampleTime == 4_000_000)
        #expect((s.gravity - gravity(right: 0.4)).length < 0.1)
    }

    @Test("pause and restart requests from another thread take effect at the next tick")
    func pauseAndRestart() {
        let ring = SPSCRing<MotionSample>(capacity: 16)
        let loop = PhysicsLoop(level: openRoom, samples: ring, rate: 100)
        ring.push(MotionSample(timestamp: 0, acceleration: -gravity(right: 0.4), fields: .acceleration))
        for _ in 0..<10 { loop.tick(elapsed: 10_000_000) }
        #expect(loop.snapshots.read().value.ball.x > openRoom.startPoint.x)
        loop.setPaused(true)
        loop.tick(elapsed: 10_000_000)
        let paused = loop.snapshots.read().value
        #expect(paused.status == .paused)
        loop.tick(elapsed: 10_000_000)
        #expect(loop.snapshots.read().value.ball == paused.ball)
        loop.setPaused(false)
        loop.restart()
        loop.tick(elapsed: 0)
        let s = loop.snapshots.read().value
        #expect(s.status == .playing)
        #expect(s.ball == openRoom.startPoint)
        #expect(s.elapsed == 0)
    }

    @Test("on its own thread, fed samples from another thread, the ball rolls the way the board is tilted")
    func threadedEndToEnd() throws {
        let ring = SPSCRing<MotionSample>(capacity: 256)
        let loop = PhysicsLoop(level: openRoom, samples: ring)
        try loop.start()
        // This thread is the sensor: a board tilted right, a sample each wait.
        var sent: Int64 = 0
        #expect(eventually {
            sent += 1
            ring.push(MotionSample(timestamp: sent * 1_000_000, acceleration: -gravity(right: 0.4), fields: .acceleration))
            let s = loop.snapshots.read().value
            return s.ball.x > openRoom.startPoint.x + 0.5 && s.samplesDrained > 10 && s.tick > 10
        })
        loop.stop()
        let s = loop.snapshots.read().value
        #expect(s.ball.x > openRoom.startPoint.x)
        #expect(loop.tickLateness.totalCount > 0)
        #expect(abs(s.ball.y - openRoom.startPoint.y) < 1e-9)
        #expect(s.samplesDrained > 10)
        #expect(s.tick > 10)
    }
}
