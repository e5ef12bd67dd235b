// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Whether this test process runs under qemu-user, as the arm64 tier runs
/// the suite on an x86 machine (scripts/arm64/test.sh sets
/// TILTMAZE_QEMU_USER=1, and child processes inherit it). A few system calls
/// behave there unlike on a real aarch64 kernel; the tests that depend on
/// them say so by name and reason where they are disabled.
public enum Emulation {
    public static var isQemuUser: Bool {
        getenv("TILTMAZE_QEMU_USER").map { String(cString: $0) == "1" } ?? false
    }

    /// A bound on a wait that only a hang should reach, in seconds: `seconds`
    /// natively, four times that under qemu-user. Emulated, a program runs
    /// several times slower, on cores the x86 tiers share: a game there once
    /// took over 60 s to roll a ball four cells that it rolls in one natively.
    /// Not more: every wait that fails costs its whole bound, and ten times
    /// (600 s a wait) let a run with a few failures outlast CI's 90 minutes.
    public static func hangBound(_ seconds: Double) -> Double {
        isQemuUser ? seconds * 4 : seconds
    }

    /// Why an ioctl's errno is not the kernel's there: qemu-user answers an
    /// ioctl its table lacks with ENOSYS without passing it on, so a file
    /// that is no input node does not get to say ENOTTY.
    public static let unknownIoctl = "qemu-user answers an ioctl it does not translate with ENOSYS, before the kernel could say ENOTTY"

    /// Why a failed exec is not seen: qemu-user runs posix_spawn's
    /// vfork as a fork without shared memory, so the child's exec error
    /// cannot reach the parent, which sees a child exiting 127.
    public static let spawnErrors = "qemu-user runs posix_spawn's vfork as a plain fork, so a failed exec comes back as exit status 127, not as an error"

    /// Seen in the arm64 tier: a child that calls abort() under qemu-user dies
    /// of SIGABRT without its handler having run (a segmentation fault's does
    /// run), so a crash handler's work cannot be checked there.
    public static let abortSignal = "under qemu-user a process that calls abort() dies of SIGABRT without its SIGABRT handler having run (a SIGSEGV handler does run)"
}
