// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Benchmark
import BenchmarkRun
import Evdev
import MotionCore
import MotionDevices
import Handoff
#if canImport(Glibc)
import Glibc
#endif

// Cost per sample from input_event records to a MotionSample in the ring
// (issue 4): what EvdevMotionSource's thread does after each readEvents, i.e.
// EvdevSampleFeeder.feed (assemble: axes, MSC clock, units, mount matrix;
// SamplePlausibility; push), with the ring drained after every read as the
// physics thread would, so it never fills. No device and no read(2): the
// events are generated into a buffer outside the timed region
// (MotionEventStream), continuing the stream from one iteration to the next.
//
// Per sample: one timed region is 1000 samples (scalingFactor .kilo, from
// scaledIterations), so the figures read as ns per sample. One `feed` call
// per HID report, as the sensor thread gets them: a DualSense frame (8
// events), a Joy-Con report (3 frames, 14 events). Here producer and consumer
// share one thread, so the ring's cache lines never move between cores.
//
// Allocations: the "×10000" benchmarks are the proof that the hot path makes
// none: unscaled counts over 10 000 samples, failing a comparison on any.
// They ask for no other metric on purpose: with `cpuTotal` the framework's
// own /proc/self/stat and /proc/self/io reads fall inside its malloc window
// and count 16 per region (seen with an empty closure). The per-sample
// benchmarks' malloc figure, those 16 included, is divided by 1000, so it
// reads 0 for anything under one allocation per sample.
//
// `cpuTotal` comes from /proc/self/stat in 10 ms ticks: a 1000-sample region
// (~30 µs) reads 0 nearly always, so its percentiles say nothing here.
// Instructions are asked for only where a hardware PMU shows in sysfs.

func warn(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// A stream, the feeder it goes through and the ring, kept across iterations.
final class FeedRig {
    let stream: MotionEventStream
    var feeder: EvdevSampleFeeder
    let ring = SPSCRing<MotionSample>(capacity: defaultSampleRingCapacity)

    init(_ shape: ControllerShape, samplesPerChunk: Int) {
        stream = MotionEventStream(shape, capacity: samplesPerChunk)
        feeder = stream.makeFeeder()
    }
}

/// The timed work: feed the chunk read by read, draining after each read.
/// The feeder is a local `inout`, not the rig's property, so the loop pays
/// no exclusivity check on it.
@inline(__always)
func feedChunk(_ stream: MotionEventStream, _ feeder: inout EvdevSampleFeeder, _ ring: SPSCRing<MotionSample>)
    -> (drained: Int, refused: Int, checksum: Int64) {
    let events = UnsafeBufferPointer(stream.events)
    let ends = stream.readEnds
    let reads = stream.readCount
    var start = 0, drained = 0, refused = 0
    var checksum: Int64 = 0
    for r in 0..<reads {
        let end = ends[r]
        refused &+= feeder.feed(UnsafeBufferPointer(rebasing: events[start..<end]), into: ring)
        drained &+= ring.drain { checksum &+= $0.timestamp }
        start = end
    }
    return (drained, refused, checksum)
}

/// Feeds three chunks of 1000 samples (the first crosses the MSC wrap; a
/// Joy-Con report is split between chunks) through a fresh feeder and
/// compares every sample with the values the stream wrote.
func verify(_ shape: ControllerShape) throws {
    let stream = MotionEventStream(shape, capacity: 1000)
    var feeder = stream.makeFeeder()
    let ring = SPSCRing<MotionSample>(capacity: 1024)
    let accelScale = standardGravity / Double(shape.accelResolution)
    let mount = stream.mount
    for _ in 0..<3 {
        var expected: [MotionSample] = []
        stream.fill(samples: 1000) { raw, t in
            let a = Vector3(Double(raw[0]), Double(raw[1]), Double(raw[2])) * accelScale
            let g = Vector3(Double(raw[3]), Double(raw[4]), Double(raw[5])) / Double(shape.gyroResolution) * (.pi / 180)
            expected.append(MotionSample(timestamp: t, acceleration: mount.apply(a), rotationRate: mount.apply(g),
                                         fields: [.acceleration, .rotationRate]))
        }
        var got: [MotionSample] = []
        let events = UnsafeBufferPointer(stream.events)
        var start = 0
        for r in 0..<stream.readCount {
            let end = stream.readEnds[r]
            let refused = feeder.feed(UnsafeBufferPointer(rebasing: events[start..<end]), into: ring)
            guard refused == 0 else { throw BenchError("\(refused) samples refused as implausible") }
            ring.drain { got.append($0) }
            start = end
        }
        guard got.count == expected.count else { throw BenchError("\(got.count) samples, expected \(expected.count)") }
        for (s, e) in zip(got, expected) {
            func close(_ u: Vector3, _ v: Vector3) -> Bool { (u - v).length <= 1e-12 * max(1, v.length) }
            guard s.timestamp == e.timestamp, s.fields == e.fields, close(s.acceleration, e.acceleration),
                  close(s.rotationRate, e.rotationRate) else {
                throw BenchError("sample \(s), expected \(e)")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Instructions need a hardware PMU; in a VM without one the counter reads 0, so leave it out.
let hasPMU = ["cpu", "cpu_core", "armv8_pmuv3_0"].contains { access("/sys/bus/event_source/devices/\($0)", F_OK) == 0 }

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    do {
        try verify(.dualSense)
        try verify(.joyCon)
    } catch {
        fatalError("EvdevFeed fixtures: \(error)")
    }
    if !hasPMU {
        warn("EvdevFeed: no hardware performance counters (/sys/bus/event_source/devices), so no instruction counts\n")
    }

    let perSample = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput] + (hasPMU ? [.instructions] : []),
        warmupIterations: 20,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 20_000
    )
    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock],
        warmupIterations: 3,
        maxDuration: .seconds(1),
        maxIterations: 50,
        thresholds: [.mallocCountTotal: .init(absolute: [.p50: 0, .p100: 0])]
    )

    for (name, shape) in [("DualSense frame → ring", ControllerShape.dualSense),
                          ("Joy-Con report (3 samples) → ring", ControllerShape.joyCon)] {
        let rig = FeedRig(shape, samplesPerChunk: 1000)
        Benchmark(name, configuration: perSample) { benchmark in
            let count = benchmark.scaledIterations.count
            rig.stream.fill(samples: count)
            var feeder = rig.feeder
            benchmark.startMeasurement()
            let result = feedChunk(rig.stream, &feeder, rig.ring)
            benchmark.stopMeasurement()
            rig.feeder = feeder
            blackHole(result.checksum)
            if result.drained != count || result.refused != 0 || rig.ring.droppedCount != 0 {
                benchmark.fail("\(result.drained) of \(count) samples in the ring, \(result.refused) refused, "
                                + "\(rig.ring.droppedCount) dropped")
            }
        }

        let unscaled = FeedRig(shape, samplesPerChunk: 10_000)
        Benchmark("\(name) ×10000 (allocations)", configuration: allocations) { benchmark in
            unscaled.stream.fill(samples: 10_000)
            var feeder = unscaled.feeder
            benchmark.startMeasurement()
            let result = feedChunk(unscaled.stream, &feeder, unscaled.ring)
            benchmark.stopMeasurement()
            unscaled.feeder = feeder
            blackHole(result.checksum)
            if result.drained != 10_000 || result.refused != 0 {
                benchmark.fail("\(result.drained) of 10000 samples in the ring, \(result.refused) refused")
            }
        }
    }
}
