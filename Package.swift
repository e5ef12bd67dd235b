// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// TiltMaze: tilt-controlled maze on Linux, fed by IIO or evdev motion sensors.
// Module shape and data flow: ARCHITECTURE.md.

import PackageDescription

var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-system.git", from: "1.8.0"),
]
// `swift package generate-documentation --target LinuxMotion`: the library's
// DocC catalogue. A player's build (TILTMAZE_PLAY_ONLY=1, below) never
// makes it, so it does not fetch the plugin either.
if Context.environment["TILTMAZE_PLAY_ONLY"] != "1" {
    dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}

// What other packages may depend on: the game and the motion library.
var products: [Product] = [
    .executable(name: "tiltmaze", targets: ["tiltmaze"]),
    // CoreMotion for Linux: the motion stack for any Swift program (Sources/LinuxMotion).
    .library(name: "LinuxMotion", targets: ["LinuxMotion"]),
]
// The benchmarks (Benchmarks/, a package of their own so that `swift build`
// never builds the benchmark framework) measure the modules beneath those
// two. Benchmarks/run sets TILTMAZE_BENCHMARKS=1, and only then are those
// modules products too. They are not an API: no other package should set it.
if Context.environment["TILTMAZE_BENCHMARKS"] == "1" {
    products += ["Handoff", "Realtime", "SystemCalls", "MotionMath", "MotionCore", "MotionDevices", "Controls", "Game", "Render",
                 "Displays", "Session", "PNG", "IIO", "Evdev", "DRM", "Fbdev"].map { .library(name: $0, targets: [$0]) }
}

let package = Package(
    name: "TiltMaze",
    products: products,
    dependencies: dependencies,
    targets: [
        // C libraries, found through pkg-config; apt names the Debian packages.
        .systemLibrary(
            name: "CIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),

        // umockdev's C API, for tests that run the real libiio and libevdev
        // against fake sysfs and /dev nodes.
        .systemLibrary(
            name: "CUmockdev",
            path: "Tests/CUmockdev",
            pkgConfig: "umockdev-1.0",
            providers: [.apt(["libumockdev-dev"])]
        ),
        // Makes chosen sysfs reads fail, as a chip's do on a glitching bus (the testbed's files never fail).
        .target(name: "CReadFaults", path: "Tests/CReadFaults"),
        // Test-side testbed: builds mock IIO and evdev devices, re-runs tests under the preload.
        .target(name: "MockDevices", dependencies: ["LibC", "CUmockdev", "CReadFaults", "SystemCalls", "CLinuxDisplay"], path: "Tests/MockDevices"),

        // Thin Swift faces on the C libraries: types, ownership, errors; no policy.
        .target(name: "IIO", dependencies: ["LibC", "CIIO", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Evdev", dependencies: ["LibC", "CEvdev", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        // Chips on an I²C bus through the kernel's i2c-dev nodes (SMBus transfers through SystemCalls).
        .target(name: "I2C", dependencies: ["LibC", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "DRM", dependencies: ["LibC", "CDRM", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        // The framebuffer device and the virtual console, on the kernel's headers.
        .target(name: "Fbdev", dependencies: ["LibC", "CLinuxDisplay", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),

        // PNG files through libpng's simplified API (snapshots, golden pictures).
        .target(name: "PNG", dependencies: ["CPNG", "SystemCalls"]),

        // The platform's C library (glibc or musl), the one module that imports
        // it; any other platform is an #error there.
        .target(name: "LibC"),
        // Lock-free hand-off between the sensor, physics and render threads.
        .target(name: "Handoff"),
        // The one seam for system calls and sysfs reads, on swift-system's
        // FileDescriptor and Errno; CSystemCalls holds the Linux calls Glibc's module lacks.
        .target(name: "CSystemCalls"),
        // The kernel's framebuffer and virtual-console headers (linux/fb.h, kd.h, vt.h).
        .target(name: "CLinuxDisplay"),
        .target(name: "SystemCalls", dependencies: ["LibC", "CSystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        // Periodic real-time threads, their lateness, plain OS threads.
        .target(name: "Realtime", dependencies: ["LibC", "SystemCalls", "CSystemCalls", "Handoff"]),

        // The vector and rotation types the motion stack speaks in, with their operators.
        .target(name: "MotionMath", dependencies: ["LibC"]),
        // Motion in SI units with no C library and no device: samples, filters, the simulated board.
        .target(name: "MotionCore", dependencies: ["LibC", "Handoff", "MotionMath"]),
        // What the player presses, as values: keyboard keys and controller buttons.
        .target(name: "Controls"),
        // The player's controllers through evdev: gamepads, joysticks, the Sense HAT joystick.
        .target(name: "Gamepads", dependencies: ["LibC", "Controls", "Evdev"]),
        // The device side: IIO, evdev and i2c-dev sources, discovery, access, sensor selection.
        .target(name: "MotionDevices", dependencies: ["LibC", "MotionCore", "Handoff", "Realtime", "SystemCalls", .product(name: "SystemPackage", package: "swift-system"), "IIO", "Evdev", "I2C"]),
        .target(name: "LinuxMotion", dependencies: ["LibC", "MotionDevices", "MotionCore", "MotionMath", "Handoff", "Realtime", "SystemCalls"]),
        // The game: levels, physics, the physics thread, menus and what inputs mean.
        .target(name: "Game", dependencies: ["LibC", "MotionCore", "Controls", "Handoff", "Realtime", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        // Pictures: a snapshot, a menu or a panel made into pixels or terminal cells, and the changed parts. No device.
        .target(name: "Render", dependencies: ["LibC", "Game", "MotionCore"]),
        // Where the pictures go, and where the keys come from: the display and key seams and their
        // back ends (the terminal, fbdev, KMS, the Sense HAT, PNG files), the console taken and given back.
        .target(name: "Displays", dependencies: ["LibC", "Render", "Game", "MotionCore", "Controls", "Realtime", "SystemCalls", "PNG", "Fbdev", "DRM",
                                                 .product(name: "SystemPackage", package: "swift-system")]),
        // One sitting, owning the pipeline between the sensor and the screen: the source and the
        // physics or model thread started, the frames paced, keys to the game and the board, calibration kept.
        .target(name: "Session", dependencies: ["LibC", "Game", "Render", "Displays", "MotionCore", "MotionDevices", "Controls", "Handoff", "Realtime",
                                                "SystemCalls"]),

        // `tiltmaze doctor` and `devices`: what the machine offers, and what to do about it.
        .target(name: "Diagnostics", dependencies: ["LibC", "MotionDevices", "Gamepads", "MotionCore", "IIO", "Evdev", "I2C", "Fbdev", "DRM", "SystemCalls",
                                                    .product(name: "SystemPackage", package: "swift-system")]),

        .executableTarget(
            name: "tiltmaze",
            dependencies: [
                "LibC", "MotionCore", "MotionDevices", "Gamepads", "Controls", "Game", "Render", "Displays", "Session", "Diagnostics", "Realtime", "Handoff", "SystemCalls", "IIO", "Evdev", "I2C", "Fbdev", "DRM", "PNG",
                // monitor --json's pitch, roll and yaw: the library's Attitude, so they read as a program using it reads them.
                "LinuxMotion",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "HandoffTests", dependencies: ["LibC", "Handoff"]),
        // Waiting for a condition in tests, with a bound that only a hang reaches.
        .target(name: "TestSupport", dependencies: ["LibC", "Realtime", "SystemCalls", "MotionCore"], path: "Tests/TestSupport"),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime", "Handoff", "SystemCalls", "TestSupport"]),
        .testTarget(name: "MotionCoreTests", dependencies: ["LibC", "MotionCore", "Handoff", "TestSupport"]),
        .testTarget(name: "LinuxMotionTests", dependencies: ["LinuxMotion", "MotionDevices", "MotionCore", "TestSupport"]),
        .testTarget(name: "MotionDevicesTests", dependencies: ["LibC", "MotionDevices", "MotionCore", "Handoff", "IIO", "I2C", "SystemCalls", "Realtime", "TestSupport", "MockDevices", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "GameTests", dependencies: ["LibC", "Game", "MotionCore", "Controls", "Handoff", "Realtime", "SystemCalls", "TestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["LibC", "Render", "Displays", "Fbdev", "Game", "MotionCore", "Controls", "Handoff", "Realtime", "SystemCalls", "TestSupport", "PNG", "CLinuxDisplay"],
                    exclude: ["Golden"]),
        .testTarget(name: "SessionTests", dependencies: ["LibC", "Session", "MotionDevices", "Render", "Displays", "Game", "MotionCore", "Controls", "Handoff", "Realtime", "SystemCalls", "TestSupport", "PNG"]),
        .testTarget(name: "GamepadsTests", dependencies: ["Gamepads", "Controls"]),
        .testTarget(name: "PNGTests", dependencies: ["LibC", "PNG"]),
        .testTarget(name: "FbdevTests", dependencies: ["Fbdev", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "DRMTests", dependencies: ["DRM", "SystemCalls"]),
        .testTarget(name: "IIOTests", dependencies: ["LibC", "IIO", "MockDevices", "SystemCalls"]),
        .testTarget(name: "EvdevTests", dependencies: ["LibC", "Evdev", "MockDevices", "CEvdev", "SystemCalls", "TestSupport"]),
        .testTarget(name: "MotionIIOTests", dependencies: ["LibC", "LinuxMotion", "MotionDevices", "Diagnostics", "MotionCore", "IIO", "MockDevices", "Handoff", "Realtime", "SystemCalls", "TestSupport"]),
        .testTarget(name: "MotionEvdevTests", dependencies: ["LibC", "LinuxMotion", "MotionDevices", "MotionCore", "Evdev", "MockDevices", "Handoff", "Realtime", "SystemCalls", "TestSupport"]),
        .testTarget(name: "TiltmazeTests", dependencies: ["LibC", "tiltmaze", "Render", "Displays", "SystemCalls", "MotionDevices", "MotionCore", "LinuxMotion", "IIO", "MockDevices", "PNG", "TestSupport", .product(name: "SystemPackage", package: "swift-system")]),
    ],
    swiftLanguageModes: [.v6]
)

// A player's build (`make play`, `make install`: TILTMAZE_PLAY_ONLY=1) leaves
// out the tests and their umockdev testbed: otherwise SwiftPM looks for
// umockdev-1.0 on every build and, on a machine without that test-only
// library, warns a player about it twice.
if Context.environment["TILTMAZE_PLAY_ONLY"] == "1" {
    let testOnly: Set<String> = ["CUmockdev", "CReadFaults", "MockDevices", "TestSupport"]
    package.targets.removeAll { $0.type == .test || testOnly.contains($0.name) }
}

// The compiler keeps the import rules, as swift-system's package does: a
// file uses a module's members only when it imports that module itself, not
// because another file of its target, or a module it imports, does. So each
// file's imports say what it uses, which is what check-module-layers.py reads.
// From Swift 6.3, the compiler of the native build and `make check`: 6.2 (the
// arm64 tier's cross-compiler) finds Glibc's `winsize` in swift-system's
// internal CSystem module, which no file of ours should import.
#if compiler(>=6.3)
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
#endif
