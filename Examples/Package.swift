// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// Small programs on the LinuxMotion library, each a package user's view of it:
// they depend on the library product by path, as a program outside this
// repository would. `swift run --package-path Examples spirit-level replay:recordings/broad-21-fast-combined.csv`.

import PackageDescription

// A path dependency's identity is its folder's name, lower-cased: "main" in
// /work/main, something else in another clone. Take it from where this manifest sits.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

let package = Package(
    name: "LinuxMotionExamples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "spirit-level", dependencies: [.product(name: "LinuxMotion", package: root)],
                          path: "SpiritLevel"),
        .executableTarget(name: "sensehat-marble", dependencies: [.product(name: "LinuxMotion", package: root)],
                          path: "SenseHatMarble"),
        .executableTarget(name: "motion-json", dependencies: [.product(name: "LinuxMotion", package: root)],
                          path: "MotionJSON"),
    ],
    swiftLanguageModes: [.v6]
)
