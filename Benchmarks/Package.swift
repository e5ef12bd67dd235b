// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// TiltMaze benchmarks: a package of their own so that the main package's
// `swift build` / `swift test` never build the benchmark framework.
//
//   cd Benchmarks && ./run            (see `run` for why nothing else is needed)
//   ./run --target IIOLatency         (needs umockdev's preload; `run` adds it for this target)
//
// ordo-one/benchmark's default traits are ["MallocInterposer", "RuntimeInterposer"];
// the second pulls in ordo-one/swift-runtime-interposer on Linux with Swift 6.3,
// which is not available here. Naming the traits explicitly drops it, and SwiftPM
// then never resolves that dependency. Malloc counts come from MallocInterposer.
// No ARC metrics (retainCount, releaseCount, objectAllocCount) here: on Linux with
// Swift 6.3 the framework counts them safely only through that runtime interposer
// (the runtime-hook crash, ordo-one/benchmark#349).

import PackageDescription

// A path dependency's package identity is its folder's name, lower-cased: the
// root package is "main" in /work/main but would be something else in a clone
// with another name, so take it from where this manifest sits.
// The root package exports its inner modules as products only to a
// resolution made with TILTMAZE_BENCHMARKS=1, as ./run makes it.
guard Context.environment["TILTMAZE_BENCHMARKS"] == "1" else {
    fatalError("run the benchmarks with Benchmarks/run (or set TILTMAZE_BENCHMARKS=1): the modules they measure are products of the TiltMaze package only then")
}

let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

let package = Package(
    name: "TiltMazeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.2.0"),
    ],
    targets: [
        // A minimal copy of Handoff.SPSCRing built on swift-atomics, to compare
        // with Synchronization.Atomic in the same run. Its own module: importing
        // Atomics and Synchronization together can fail to compile.
        .target(
            name: "AtomicsRing",
            dependencies: [.product(name: "Atomics", package: "swift-atomics")]
        ),
        // How every benchmark ends: failures `run` sees (`fail`), and the short smoke run CI makes.
        // Swift 5 mode: it edits the framework's registry (a plain static var, which Swift 6
        // refuses to touch) while the runner registers benchmarks, on one thread, before any runs.
        .target(name: "BenchmarkRun", dependencies: [.product(name: "Benchmark", package: "benchmark")],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        // Test fixtures shared by the benchmarks (a level with ghosts, sample streams).
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Game", package: root),
                .product(name: "MotionCore", package: root),
                .product(name: "Handoff", package: root),
            ]
        ),

        // umockdev's C API (a copy of ../Tests/CUmockdev under its own module
        // name) and the little of ../Tests/MockDevices that IIOLatency needs:
        // MockDevices is a test-support target of the root package, not a product.
        .systemLibrary(
            name: "CUmockdevBench",
            path: "Sources/CUmockdevBench",
            pkgConfig: "umockdev-1.0",
            providers: [.apt(["libumockdev-dev"])]
        ),
        .target(name: "MockIMU", dependencies: ["CUmockdevBench"]),

        benchmark("RingThroughput", root: ["Handoff", "MotionCore", "Realtime", "SystemCalls"], local: ["AtomicsRing"]),
        benchmark("PhysicsStep", root: ["Game", "MotionCore", "Handoff"], local: ["BenchmarkSupport"]),
        benchmark("HotPathAllocations", root: ["Game", "MotionCore", "MotionDevices", "IIO", "Handoff", "Realtime", "Render", "Displays", "Session"], local: ["BenchmarkSupport"]),
        benchmark("RenderFrame", root: ["Render", "Displays", "Fbdev", "Game", "MotionCore"], local: ["BenchmarkSupport"]),
        // Issue 3: demultiplex-and-convert cost of a 7-channel MPU-6050 scan.
        benchmark("IIOScanDecode", root: ["IIO", "MotionCore", "MotionDevices"]),
        // Issue 3: scan written to a umockdev device node → sample in the ring.
        // Runs only under libumockdev-preload (`./run --target IIOLatency`).
        benchmark("IIOLatency", root: ["IIO", "MotionCore", "MotionDevices", "Realtime", "SystemCalls"], local: ["MockIMU"]),
        // Issue 12: the attitude filter over compare.py's and broad.py's recordings (not a timing
        // benchmark: a command-line tool printing its estimates, scored beside VQF and Fusion).
        // Outside Benchmarks/: the plugin runs every executable in that folder as a benchmark.
        .executableTarget(
            name: "FilterAccuracy",
            dependencies: [.product(name: "MotionCore", package: root)],
            path: "Tools/FilterAccuracy"
        ),
        // Issue 23: the motion library's callback latency and allocations, and CPU per value of its two forms.
        benchmark("MotionUpdates", root: ["LinuxMotion", "MotionCore", "Realtime", "SystemCalls", "Handoff"]),
        // Issue 4: input_event records → EvdevSampleFeeder → sample in the ring, per sample.
        benchmark("EvdevFeed", root: ["Evdev", "MotionCore", "MotionDevices", "Handoff"]),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark executable in Benchmarks/<name>, using the framework, the named
/// products of the root package and local targets of this one.
func benchmark(_ name: String, root rootProducts: [String], local: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + rootProducts.map { .product(name: $0, package: root) } + ["BenchmarkRun"] + local,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
