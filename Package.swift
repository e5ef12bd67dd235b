// swift-tools-version: 6.1
// TiltMaze: tilt-controlled maze on Linux, fed by IIO or evdev motion sensors.
// Module shape and data flow: see ../shared/DESIGN.md (and README.md).

import PackageDescription

let package = Package(
    name: "TiltMaze",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tiltmaze", targets: ["tiltmaze"]),
        .library(name: "RingBuffer", targets: ["RingBuffer"]),
        .library(name: "Realtime", targets: ["Realtime"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Game", targets: ["Game"]),
        .library(name: "Render", targets: ["Render"]),
        .library(name: "IIO", targets: ["IIO"]),
        .library(name: "Evdev", targets: ["Evdev"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        // C libraries, found through pkg-config; apt names the Debian packages.
        .systemLibrary(
            name: "CIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev"])]
        ),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // umockdev's C API, for tests that run the real libiio and libevdev
        // against fake sysfs and /dev nodes (../shared/umockdev-notes.md).
        .systemLibrary(
            name: "CUmockdev",
            path: "Tests/CUmockdev",
            pkgConfig: "umockdev-1.0",
            providers: [.apt(["libumockdev-dev"])]
        ),
        // Test-side testbed: builds mock IIO and evdev devices, re-runs tests under the preload.
        .target(name: "MockDevices", dependencies: ["CUmockdev"], path: "Tests/MockDevices"),

        // Thin Swift faces on the C libraries: types, ownership, errors; no policy.
        .target(name: "IIO", dependencies: ["CIIO"]),
        .target(name: "Evdev", dependencies: ["CEvdev"]),

        // Lock-free hand-off between the sensor, physics and render threads.
        .target(name: "RingBuffer"),
        // Monotonic clock, absolute-deadline sleep and plain OS threads.
        .target(name: "CRealtime"),
        .target(name: "Realtime", dependencies: ["CRealtime"]),

        .target(name: "Motion", dependencies: ["RingBuffer", "Realtime", "IIO", "Evdev"]),
        .target(name: "Game", dependencies: ["Motion", "RingBuffer", "Realtime"]),
        .target(name: "Render", dependencies: ["Game"]),

        .executableTarget(
            name: "tiltmaze",
            dependencies: [
                "Motion", "Game", "Render", "Realtime", "IIO", "Evdev",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "RingBufferTests", dependencies: ["RingBuffer"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "RingBuffer"]),
        .testTarget(name: "GameTests", dependencies: ["Game", "Motion", "RingBuffer"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Game"]),
        .testTarget(name: "DriverWrapperTests", dependencies: ["IIO", "Evdev"]),
        .testTarget(name: "IIOTests", dependencies: ["IIO", "MockDevices"]),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "MockDevices", "CEvdev"]),
        .testTarget(name: "MotionIIOTests", dependencies: ["Motion", "IIO", "MockDevices", "RingBuffer", "Realtime"]),
        .testTarget(name: "MotionEvdevTests", dependencies: ["Motion", "Evdev", "MockDevices", "RingBuffer", "Realtime"]),
        .testTarget(name: "TiltmazeTests", dependencies: ["tiltmaze", "Render", "Motion", "IIO", "MockDevices"]),
    ],
    swiftLanguageModes: [.v6]
)
