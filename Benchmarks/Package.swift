// swift-tools-version: 6.1
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
        // A minimal copy of RingBuffer.SPSCRing built on swift-atomics, to compare
        // with Synchronization.Atomic in the same run. Its own module: importing
        // Atomics and Synchronization together can fail to compile.
        .target(
            name: "AtomicsRing",
            dependencies: [.product(name: "Atomics", package: "swift-atomics")]
        ),
        // Test fixtures shared by the benchmarks (a level with ghosts, sample streams).
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Game", package: root),
                .product(name: "Motion", package: root),
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

        .executableTarget(
            name: "RingThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RingBuffer", package: root),
                .product(name: "Motion", package: root),
                .product(name: "Realtime", package: root),
                "AtomicsRing",
            ],
            path: "Benchmarks/RingThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PhysicsStep",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Game", package: root),
                .product(name: "Motion", package: root),
                .product(name: "RingBuffer", package: root),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/PhysicsStep",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HotPathAllocations",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Game", package: root),
                .product(name: "Motion", package: root),
                .product(name: "RingBuffer", package: root),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/HotPathAllocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RenderFrame",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Render", package: root),
                .product(name: "Game", package: root),
                .product(name: "Motion", package: root),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/RenderFrame",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Issue 3: demultiplex-and-convert cost of a 7-channel MPU-6050 scan.
        .executableTarget(
            name: "IIOScanDecode",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "IIO", package: root),
                .product(name: "Motion", package: root),
            ],
            path: "Benchmarks/IIOScanDecode",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Issue 3: scan written to a umockdev device node → sample in the ring.
        // Runs only under libumockdev-preload (`./run --target IIOLatency`).
        .executableTarget(
            name: "IIOLatency",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "IIO", package: root),
                .product(name: "Motion", package: root),
                .product(name: "Realtime", package: root),
                "MockIMU",
            ],
            path: "Benchmarks/IIOLatency",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
