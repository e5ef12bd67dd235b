// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import BenchmarkSupport
import Game
import MotionCore
import Handoff

// Cost of one physics step on a 30×11 level with four ghosts, and of one
// physics-loop wake-up as the game runs it at 240 Hz. Every world here is
// endless (Fixtures.endlessWorld: exits walled in, lives never run out), so
// every step does full work: integrate, sweep both axes, test every ghost. A
// world that had ended would return from each step at once; each benchmark
// checks after its sample that its world is still in play.
// Times are per step / per tick (scaling factor: each sample is 1000 of them).

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    let level = Fixtures.level()
    let gravities = Fixtures.gravities()
    let samples = Fixtures.samples()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )

    // The world lives on across samples, so the ball roams the whole hall.
    var world = Fixtures.endlessWorld(level)
    var g = 0
    Benchmark("World.step(gravity:), 4 ghosts (per step)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            world.step(gravity: gravities[g & (gravities.count - 1)])
            g &+= 1
        }
        blackHole(world.ball)
        if world.status != .playing { benchmark.fail("the ball left play: \(world.status)") }
    }

    // One wake-up: drain the samples the sensor pushed since the last one, fold
    // them into the tilt estimate, take the step(s) the clock asks for, publish
    // a snapshot. Exactly one step per tick here (elapsed == the fixed step).
    func tickBenchmark(_ name: String, samplesPerTick: Int) {
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        let loop = Fixtures.endlessLoop(level, samples: ring)
        var feeder = TickFeeder(samples: samples)
        Benchmark(name, configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                feeder.tick(loop, ring: ring, samplesPerTick: samplesPerTick)
            }
            let latest = loop.snapshots.read().value
            if latest.samplesDropped != 0 { benchmark.fail("ring dropped \(latest.samplesDropped) samples") }
            if latest.status != .playing { benchmark.fail("the ball left play: \(latest.status)") }
        }
    }
    tickBenchmark("PhysicsLoop.tick, 4 samples pushed + drained (per tick)", samplesPerTick: Fixtures.samplesPerTick)
    tickBenchmark("PhysicsLoop.tick, no samples (per tick)", samplesPerTick: 0)

    // A 101×101 generated maze (16 ghosts): the step on the largest maze a
    // player is likely to generate, and the generator's own time for it.
    let big = try! MazeGenerator.generate(seed: 1, width: 101, height: 101)
    var bigWorld = Fixtures.endlessWorld(big)
    Benchmark("World.step(gravity:), generated 101x101 maze, \(big.ghosts.count) ghosts (per step)",
              configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            bigWorld.step(gravity: gravities[g & (gravities.count - 1)])
            g &+= 1
        }
        blackHole(bigWorld.ball)
        if bigWorld.status != .playing { benchmark.fail("the ball left play: \(bigWorld.status)") }
    }
    // The largest bundled level, The Gauntlet (41×21, 11 ghosts, pellets): the
    // step a campaign player's machine takes most.
    let gauntlet = Campaign.levels.last!.level
    var gauntletWorld = Fixtures.endlessWorld(gauntlet)
    Benchmark("World.step(gravity:), largest bundled level (\(gauntlet.title), \(gauntlet.width)x\(gauntlet.height), \(gauntlet.ghosts.count) ghosts) (per step)",
              configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            gauntletWorld.step(gravity: gravities[g & (gravities.count - 1)])
            g &+= 1
        }
        blackHole(gauntletWorld.ball)
        if gauntletWorld.status != .playing { benchmark.fail("the ball left play: \(gauntletWorld.status)") }
    }
    Benchmark("MazeGenerator.generate 101x101",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 2, maxDuration: .seconds(3))) { benchmark in
        for seed in benchmark.scaledIterations {
            blackHole(try! MazeGenerator.generate(seed: UInt64(seed), width: 101, height: 101))
        }
    }
}
