// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation

/// What the real kernel drivers registered in the qemu tier, as recorded in
/// `Tests/Fixtures/kernel/` (see its README): the evdev nodes' descriptions
/// and the IIO devices' sysfs trees in umockdev's format.
public enum KernelFixtures {
    /// The kernel a fixture was recorded on: each qemu guest keeps its own.
    public enum Kernel: String, Sendable, CaseIterable {
        /// Debian bookworm's 6.1 on x86_64 (`make test-qemu`).
        case bookworm61 = "kernel"
        /// Debian trixie's 6.12 on arm64, the series Raspberry Pi OS runs (`make test-qemu-arm64`).
        case trixie612Arm64 = "kernel-6.12-arm64"
    }

    /// The text of `Tests/Fixtures/kernel/NAME` (or the other kernel's folder).
    public static func text(_ name: String, kernel: Kernel = .bookworm61) throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(kernel.rawValue)/\(name)").path
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
