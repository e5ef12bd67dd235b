// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import BenchmarkSupport
import Foundation
import Game
import IIO
import MotionCore
import MotionDevices
import Handoff
import Realtime
import Render
import Displays
import Session

// Heap allocations on the hot paths in steady state; the target is zero.
// Each sample runs the operation `calls` times after the warm-up samples
// (state lives on across samples), so a figure of n means n allocations per
// 10 000 calls. Any non-zero figure is a finding: rerun with
// `./run --filter '<name>' --allocation-stacks` to see where.

let calls = 10_000

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    let level = Fixtures.level()
    let gravities = Fixtures.gravities()
    let samples = Fixtures.samples()
    let configuration = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock],
        warmupIterations: 3,
        maxDuration: .seconds(1),
        maxIterations: 50,
        // Not a timing threshold: any allocation more than the baseline fails a comparison.
        thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
    )

    do {
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        let loop = Fixtures.endlessLoop(level, samples: ring)
        var feeder = TickFeeder(samples: samples)
        Benchmark("PhysicsLoop.tick ×10000 (4 samples per tick)", configuration: configuration) { benchmark in
            for _ in 0..<calls {
                feeder.tick(loop, ring: ring, samplesPerTick: Fixtures.samplesPerTick)
            }
            let latest = loop.snapshots.read().value
            if latest.status != .playing { benchmark.fail("the ball left play: \(latest.status)") }
        }
    }

    do {
        // The calibration and ColorTilt screens' thread: fused motion, shakes, the model, two publishes.
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        let loop = MotionModelLoop(model: ColorTilt(), samples: ring, rate: 100)
        var next = 0
        var timestamp: Int64 = 0
        Benchmark("MotionModelLoop<ColorTilt>.tick ×10000 (4 samples per tick)", configuration: configuration) { benchmark in
            for _ in 0..<calls {
                for _ in 0..<4 {
                    var s = samples[next & (samples.count - 1)]
                    s.timestamp = timestamp
                    ring.push(s)
                    next &+= 1
                    timestamp &+= Fixtures.samplePeriod
                }
                loop.tick(elapsed: 10_000_000)
            }
            blackHole(loop.snapshots.read().value)
        }
    }

    do {
        var world = Fixtures.endlessWorld(level)
        var g = 0
        var snapshot = WorldSnapshot()
        Benchmark("World.step + snapshot(into:) ×10000", configuration: configuration) { benchmark in
            for _ in 0..<calls {
                world.step(gravity: gravities[g & (gravities.count - 1)])
                world.snapshot(into: &snapshot)
                g &+= 1
            }
            blackHole(snapshot)
            if snapshot.status != .playing { benchmark.fail("the ball left play: \(snapshot.status)") }
        }
    }

    do {
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        Benchmark("SPSCRing<MotionSample> push + pop ×10000", configuration: configuration) { benchmark in
            var sum: Int64 = 0
            for i in 0..<calls {
                ring.push(samples[i & (samples.count - 1)])
                if let s = ring.pop() { sum &+= s.timestamp }
            }
            blackHole(sum)
        }
        Benchmark("SPSCRing<MotionSample> push ×8 + drain, ×10000 items", configuration: configuration) { benchmark in
            var sum: Int64 = 0
            for i in stride(from: 0, to: calls, by: 8) {
                for j in 0..<8 { ring.push(samples[(i + j) & (samples.count - 1)]) }
                ring.drain { sum &+= $0.timestamp }
            }
            blackHole(sum)
        }
    }

    do {
        let latest = LatestValue(WorldSnapshot())
        Benchmark("LatestValue<WorldSnapshot> publish + read ×10000", configuration: configuration) { benchmark in
            var s = WorldSnapshot()
            var ticks: UInt64 = 0
            for i in 0..<calls {
                s.tick = UInt64(i)
                latest.publish(s)
                let r = latest.read()
                if r.isNew { ticks &+= r.value.tick }
            }
            blackHole(ticks)
        }
    }

    do {
        // What SimulatedSource's thread does per sample: steer the board, read it, push.
        var board = TiltBoard()
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        let dt = Double(Fixtures.samplePeriod) / 1e9
        var i = 0
        Benchmark("TiltBoard.advance + push (simulated sensor) ×10000", configuration: configuration) { benchmark in
            for _ in 0..<calls {
                board.targetRoll = board.maxTilt * gravities[i & (gravities.count - 1)].x / 9.81
                board.targetPitch = board.maxTilt * gravities[i & (gravities.count - 1)].y / 9.81
                ring.push(board.advance(by: dt, timestamp: Int64(i)))
                _ = ring.pop()
                i &+= 1
            }
        }
    }

    do {
        // What the physics thread does per sample when the sensor has a gyroscope:
        // the attitude filter's update (gyro integration, the pull towards up, bias learning).
        var tilt = TiltEstimator()
        var t: Int64 = 0
        Benchmark("TiltEstimator.add, fused accelerometer + gyroscope ×10000", configuration: configuration) { benchmark in
            for i in 0..<calls {
                t &+= 5_000_000
                let g = gravities[i & (gravities.count - 1)]
                tilt.add(MotionSample(timestamp: t, acceleration: g,
                                      rotationRate: Vector3(0.01, -0.02, 0.005),
                                      fields: [.acceleration, .rotationRate]))
            }
            blackHole(tilt.gravity)
        }
    }

    // With a magnetometer reading on every sample, as a field that turns with
    // the board: nine axes (the heading's correction, the disturbance test and
    // the hard-iron fit's sums, and every 0.5 s of readings the fit itself), and
    // a board without a gyroscope (CompassTilt). The same loop for both.
    let fields = Fixtures.fields()
    for (name, kept) in [("nine axes (magnetometer, hard-iron learning)", MotionSample.Fields.all),
                         ("accelerometer + magnetometer (no gyroscope)", [.acceleration, .magneticField])] {
        var tilt = TiltEstimator()
        var t: Int64 = 0
        Benchmark("TiltEstimator.add, \(name) ×10000", configuration: configuration) { benchmark in
            for i in 0..<calls {
                t &+= 5_000_000
                tilt.add(MotionSample(timestamp: t, acceleration: gravities[i & (gravities.count - 1)],
                                      rotationRate: Vector3(0.01, -0.02, 0.005), magneticField: fields[i & (fields.count - 1)],
                                      fields: kept))
            }
            blackHole(tilt.gravity)
        }
    }

    do {
        // Shake detection per sample, on pushes that cross the threshold now and then.
        var detector = ShakeDetector()
        var t: Int64 = 0
        var fired = 0
        Benchmark("ShakeDetector.add ×10000", configuration: configuration) { benchmark in
            for i in 0..<calls {
                t &+= 5_000_000
                let push = Double(i & 127) * 0.12
                if detector.add(userAcceleration: Vector3(push, -0.5 * push, 1), at: t) != nil { fired &+= 1 }
            }
            blackHole(fired)
        }
    }

    do {
        // What a periodic thread adds to each wake-up (the physics tick, the
        // simulated sensor, the frame loop): the next deadline and the lateness.
        var schedule = PeriodicSchedule(period: 4_166_667, start: 0, maxCatchUp: 8)
        let lateness = LatencyHistogram()
        var now: Int64 = 0
        Benchmark("PeriodicSchedule.woke + LatencyHistogram.record ×10000", configuration: configuration) { benchmark in
            for i in 0..<calls {
                now = schedule.deadline &+ Int64(i & 1023) &* 97
                lateness.record(schedule.woke(at: now))
            }
            blackHole(schedule.deadline)
        }
    }

    do {
        // What `play --stats` adds to a frame: three values recorded, and the
        // status line's text made anew every 30th frame (twice a second at 60 Hz).
        let statistics = FrameStatistics()
        let ticks = LatencyHistogram()
        var t: Int64 = 0
        Benchmark("FrameStatistics: 3 records per frame + text every 30 frames ×10000", configuration: configuration) { benchmark in
            var length = 0
            for i in 0..<calls {
                t &+= 16_666_667
                ticks.record(Int64(i & 255) &* 1_000)
                statistics.framePeriod.record(16_666_667 &+ Int64(i & 63) &* 1_000)
                statistics.frameCost.record(200_000 &+ Int64(i & 127) &* 1_000)
                statistics.sampleAge.record(3_000_000 &+ Int64(i & 511) &* 10_000)
                if i % 30 == 0 { length &+= statistics.text(tickLateness: ticks, dropped: i).count }
            }
            blackHole(length)
            blackHole(t)
        }
    }

    do {
        // What the i2c-dev source's thread does per sample of the Sense HAT's
        // LSM9DS1 once the bytes are in (the bus transfers are system calls,
        // not measured here): a look that finds nothing and one that finds a
        // sample, as on time, the conversion (with a magnetometer reading on
        // every third sample: 80 Hz beside 238), the plausibility check, the push.
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        var pacing = DataReadyPacing(period: 4_201_681)
        var judge = SamplePlausibility()
        let registers: [UInt8] = [0xe8, 0x03, 0x70, 0xfe, 0xd0, 0x07, 0x00, 0x00, 0x00, 0x00, 0x02, 0x10,
                                  0xd0, 0x07, 0x18, 0xfc, 0x48, 0xf4]
        var now: Int64 = 0
        // The same work as the source does it, each look and its reads made
        // through TransientFaults.retrying, where no read fails: what riding
        // out a glitching bus costs on a healthy one.
        for retried in [false, true] {
            Benchmark("LSM9DS1 looks + decode + push (i2c-dev source, bus excluded)\(retried ? ", through TransientFaults.retrying" : "") ×10000",
                      configuration: configuration) { benchmark in
                var pushed = 0
                var faults = TransientFaults()
                registers.withUnsafeBytes { bytes in
                    let gyro = UnsafeRawBufferPointer(rebasing: bytes[0 ..< 6]), accel = UnsafeRawBufferPointer(rebasing: bytes[6 ..< 12])
                    let field = UnsafeRawBufferPointer(rebasing: bytes[12 ..< 18])
                    func look(_ i: Int, ready: Bool) -> MotionSample? {
                        guard let time = pacing.look(at: now, ready: ready) else { return nil }
                        var sample = LSM9DS1.sample(gyro: gyro, accel: accel, timestamp: time, mount: LSM9DS1.senseHatMount)
                        if i % 3 == 0 {
                            sample.magneticField = LSM9DS1.magneticField(field, mount: LSM9DS1.senseHatMount)
                            sample.fields.insert(.magneticField)
                        }
                        return sample
                    }
                    for i in 0..<calls {
                        now &+= 3_676_471
                        _ = retried ? try? TransientFaults.retrying { () throws(IIOError) in look(i, ready: false) } : look(i, ready: false)
                        now &+= 525_210
                        let found = retried ? try? TransientFaults.retrying { () throws(IIOError) in look(i, ready: true) } : look(i, ready: true)
                        if let sample = found ?? nil {
                            faults.succeeded()
                            if judge.accept(sample) { ring.push(sample); pushed &+= 1 }
                            _ = ring.pop()
                        }
                    }
                }
                if pushed != calls { benchmark.fail("\(pushed) of \(calls) samples pushed") }
            }
        }
    }

    do {
        // The loop every device source reads in (SensorThread.readLoop), with
        // a device that answers at once: each pass offers a sample (checked,
        // pushed) through the loop's retry of the pass, its fault and
        // silence bookkeeping, on the calling thread. The device's own
        // reading is another benchmark's; this is what the shared loop adds.
        let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)
        let thread = SensorThread(samples: ring)
        Benchmark("SensorThread.readLoop, a pass offering a sample ×10000", configuration: configuration) { benchmark in
            var judge = SamplePlausibility()
            var passes = 0
            var time: Int64 = 0
            thread.runHere {
                thread.readLoop(.init(slice: 250_000_000, failAfter: 2_000_000_000),
                                keepsFailing: { _ in "keeps failing" }, failed: { _ in "failed" }) { () throws(IIOError) -> SensorThread.Pass in
                    guard passes < calls else { return .ended }
                    passes &+= 1
                    time &+= 5_000_000
                    thread.offer(MotionSample(timestamp: time, acceleration: Vector3(0, 0, 9.81), fields: .acceleration), judge: &judge)
                    _ = ring.pop()
                    return .data
                }
            }
            if passes != calls || thread.failure != nil { benchmark.fail("\(passes) of \(calls) passes, failure: \(thread.failure ?? "none")") }
        }
    }

    do {
        // A polled IIO sample's six raw reads (pread at offset 0 and the
        // parse), on a file standing in for in_accel_x_raw.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltmaze-bench-raw-\(getpid())").path
        if FileManager.default.createFile(atPath: path, contents: Data("-12345\n".utf8)),
           let file = try? IIORawValueFile(path: path) {
            Benchmark("IIORawValueFile.read ×6 (one polled sample) ×10000", configuration: configuration) { benchmark in
                var sum: Int64 = 0
                for _ in 0..<calls {
                    for _ in 0..<6 { sum &+= (try? file.read()) ?? 0 }
                }
                if sum != -12345 * 6 * Int64(calls) { benchmark.fail("read \(sum), not \(-12345 * 6 * calls)") }
            }
            // The same six reads as one try of TransientFaults.retrying, as IIOPoller makes them.
            Benchmark("IIORawValueFile.read ×6 through TransientFaults.retrying (one polled sample) ×10000", configuration: configuration) { benchmark in
                var sum: Int64 = 0
                for _ in 0..<calls {
                    sum &+= (try? TransientFaults.retrying { () throws(IIOError) -> Int64 in
                        var got: Int64 = 0
                        for _ in 0..<6 { got &+= try file.read() }
                        return got
                    }) ?? 0
                }
                if sum != -12345 * 6 * Int64(calls) { benchmark.fail("read \(sum), not \(-12345 * 6 * calls)") }
            }
        } else {
            Benchmark("IIORawValueFile.read ×6 (one polled sample) ×10000", configuration: configuration) { benchmark in
                benchmark.fail("cannot make \(path)")
            }
        }
    }
}
