// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Benchmark

/// What every benchmark target shares about how a run ends: failures that
/// `run` can see, and the short smoke run CI makes.
///
/// The framework prints the reason a benchmark gives to `error(_:)` and goes
/// on, and the plugin still exits 0; a benchmark whose set-up broke would go
/// unnoticed (it happened: a world that ran out of lives printed one line and
/// no figure for months). `run` looks for `failureMarker` in the output and
/// exits 1 when it is there.
public enum BenchmarkRun {
    /// Starts the line of every failure; `run` greps for it.
    public static let failureMarker = "BENCHMARK FAILED:"

    /// Set (to 1) by `run --smoke`: every benchmark runs briefly, enough to
    /// pass through its set-up and checks; no figure means anything.
    public static let smokeVariable = "TILTMAZE_BENCH_SMOKE"

    public static var isSmokeRun: Bool {
        getenv(smokeVariable).map { String(cString: $0) == "1" } ?? false
    }

    /// Call at the end of a target's `benchmarks` closure: in a smoke run, cuts
    /// every registered benchmark down to its own warm-up and five samples
    /// (at most a second). The warm-up is kept because state lives on across
    /// samples: a world that runs out of lives did so during the warm-up.
    public static func registrationDone() {
        guard isSmokeRun else { return }
        for benchmark in Benchmark.benchmarks {
            benchmark.configuration.maxIterations = min(benchmark.configuration.maxIterations, 5)
            benchmark.configuration.maxDuration = min(benchmark.configuration.maxDuration, .seconds(1))
        }
    }

    /// A failure outside any one benchmark (a target that cannot set up at all).
    public static func targetFailed(_ target: String, _ reason: String) {
        print("\(failureMarker) \(target): \(reason)")
    }
}

extension Benchmark {
    /// Ends this benchmark as failed, in words `run` finds (see `BenchmarkRun`).
    public func fail(_ reason: String) {
        error("\(BenchmarkRun.failureMarker) \(name): \(reason)")
    }
}
