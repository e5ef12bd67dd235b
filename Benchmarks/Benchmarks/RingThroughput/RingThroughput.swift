// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import AtomicsRing
import Benchmark
import BenchmarkRun
import MotionCore
import Handoff

// Items per second through a capacity-1024 SPSC ring between two real threads:
// a producer thread pushing, the benchmark thread popping or draining.
//
// The first benchmarks report the framework's throughput metric (items/s, one
// transfer of a million items per sample) for the game's own ring.
//
// The last one runs, inside each sample and in rotating order, every
// combination of ring × element (48 B = six Doubles, 88 B = MotionSample) ×
// consumer (pop, drain), and records each as a custom metric, plus the
// SPSCRing ÷ swift-atomics ratio taken within the same sample. On this shared
// 2-vCPU machine thread placement swings cross-thread figures 4–10× within
// seconds, so only interleaved ratios compare. The rings:
//   SPSCRing   Handoff.SPSCRing as shipped (Synchronization.Atomic; its two
//              plain vars are @exclusivity(unchecked), so no swift_beginAccess)
//   atomics    the same algorithm and layout on swift-atomics' UnsafeAtomic

let capacity = 1024
// Per interleaved transfer: ~100 trips round the ring. Small on purpose: when
// another process takes a vCPU the two spinning threads share one and a
// transfer drops to ~130 K items/s, so a million items would take ~8 s and
// leave the 30 s budget with one or two rounds to take a median of.
let itemsPerTransfer = 100_000

let benchmarks: @Sendable () -> Void = {
    defer { BenchmarkRun.registrationDone() }
    let singleConfiguration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock],
        warmupIterations: 2,
        scalingFactor: .mega,   // scaledIterations.count == items per transfer
        maxDuration: .seconds(3),
        maxIterations: 40
    )

    func single<R: TransferRing>(_ name: String, _ ring: R, _ consumer: ConsumerStyle) where R.Element: Sequenced {
        Benchmark(name, configuration: singleConfiguration) { benchmark in
            let r = transfer(through: ring, count: benchmark.scaledIterations.count, consumer: consumer,
                             started: { benchmark.startMeasurement() },
                             finished: { benchmark.stopMeasurement() })
            if r.misordered != 0 { benchmark.fail("\(r.misordered) items out of order") }
        }
    }

    single("SPSCRing 48 B (6 Double), pop", SPSCRing<Item48>(capacity: capacity), .pop)
    single("SPSCRing 48 B (6 Double), drain", SPSCRing<Item48>(capacity: capacity), .drain)
    single("SPSCRing MotionSample 88 B, pop", SPSCRing<MotionSample>(capacity: capacity), .pop)
    single("SPSCRing MotionSample 88 B, drain", SPSCRing<MotionSample>(capacity: capacity), .drain)

    // Interleaved comparison.
    struct Variant {
        var metric: BenchmarkMetric
        var run: () -> (nanoseconds: Int64, misordered: Int)
    }
    struct Ratio {
        var metric: BenchmarkMetric
        var numerator: Int
        var denominator: Int
    }
    var variants: [Variant] = []
    var ratios: [Ratio] = []
    func variant<R: TransferRing>(_ name: String, _ ring: R, _ consumer: ConsumerStyle) -> Int where R.Element: Sequenced {
        variants.append(Variant(metric: .custom(name + " (items/s)", polarity: .prefersLarger, useScalingFactor: false)) {
            transfer(through: ring, count: itemsPerTransfer, consumer: consumer)
        })
        return variants.count - 1
    }
    func ratio(_ name: String, _ numerator: Int, _ denominator: Int) {
        ratios.append(Ratio(metric: .custom(name + " (%)", polarity: .prefersLarger, useScalingFactor: false),
                            numerator: numerator, denominator: denominator))
    }
    func group<E: Sequenced>(_ element: E.Type, _ label: String, _ consumer: ConsumerStyle) {
        let name = "\(label) \(consumer.rawValue)"
        let shipped = variant("\(name): SPSCRing", SPSCRing<E>(capacity: capacity), consumer)
        let atomics = variant("\(name): atomics", AtomicsSPSCRing<E>(capacity: capacity), consumer)
        ratio("\(name): SPSCRing ÷ atomics", shipped, atomics)
    }
    group(Item48.self, "48 B", .pop)
    group(Item48.self, "48 B", .drain)
    group(MotionSample.self, "88 B", .pop)
    group(MotionSample.self, "88 B", .drain)

    var round = 0
    Benchmark(
        "Interleaved: SPSCRing vs swift-atomics",
        configuration: .init(
            metrics: variants.map(\.metric) + ratios.map(\.metric),
            warmupIterations: 1,
            maxDuration: .seconds(30),
            maxIterations: 25
        )
    ) { [variants, ratios] benchmark in
        var rates = [Int](repeating: 0, count: variants.count)
        for k in 0..<variants.count {
            let i = (round + k) % variants.count
            let r = variants[i].run()
            if r.misordered != 0 { benchmark.fail("\(r.misordered) items out of order") }
            rates[i] = Int(Double(itemsPerTransfer) * 1e9 / Double(r.nanoseconds))
        }
        round += 1
        for (i, v) in variants.enumerated() { benchmark.measurement(v.metric, rates[i]) }
        for r in ratios { benchmark.measurement(r.metric, rates[r.numerator] * 100 / rates[r.denominator]) }
    }
}
