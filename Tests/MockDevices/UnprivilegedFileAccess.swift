// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import LibC

/// Runs code with file permissions enforced even when the tests run as root
/// (containers, CI), so a "permission denied" test sees EACCES.
///
/// Root ignores permission bits (CAP_DAC_OVERRIDE). Switching this thread's
/// filesystem uid to `nobody` with `setfsuid(2)` clears that capability for
/// file access on this thread only, and switching back restores it
/// (capabilities(7)). `setfsuid` is looked up with `dlsym` because Swift's
/// Glibc module does not import <sys/fsuid.h>. Not root: `body` runs as is.
public enum UnprivilegedFileAccess {
    /// The uid file access is checked as inside `run` when the tests run as root.
    public static let nobody: uid_t = 65534

    /// Runs `body` with this thread's file access checked as `nobody` (when
    /// root). The testbed's own plumbing is opened to that user first — its
    /// directory made traversable, its ioctl sockets connectable (the preload
    /// exits the process when it cannot connect) — so only files the test
    /// closed off itself are refused.
    public static func run(in testbed: Testbed, _ body: () throws -> Void) throws {
        guard geteuid() == 0 else { return try body() }
        guard let setfsuid = setfsuidFunction else {
            throw TestbedError("setfsuid is not available: cannot test permission errors as root")
        }
        let root = testbed.rootDirectory
        var info = stat()
        stat(root, &info)
        chmod(root, 0o755)
        defer { chmod(root, info.st_mode & 0o7777) }
        openUp(root + "/ioctl")
        _ = setfsuid(nobody)
        defer { _ = setfsuid(0) }
        return try body()
    }

    /// Lets a child process running as another user (`nobody`, see
    /// `unprivilegedCommand`) use the testbed: its directory traversable and
    /// readable, its ioctl sockets connectable. The files keep their modes,
    /// so what the test closes off stays closed.
    public static func share(_ testbed: Testbed) {
        chmod(testbed.rootDirectory, 0o755)
        openUp(testbed.rootDirectory + "/ioctl")
    }

    /// The command line that runs `command` as `nobody` when the tests run as
    /// root (setpriv, from util-linux), so its `access(2)` checks mean
    /// something; `command` itself otherwise.
    public static func unprivilegedCommand(_ command: [String]) -> [String] {
        guard geteuid() == 0 else { return command }
        return ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"] + command
    }

    /// Runs the tests whose id matches `filter` again in a child process of
    /// this test binary as `nobody` (see `unprivilegedCommand`), for a test
    /// whose point is a permission root does not feel: `access(2)` checks
    /// the real uid, which `setfsuid` leaves alone. Only when the tests run as
    /// root; the caller runs its body itself otherwise.
    public static func rerunAsNobody(_ filter: String, timeout: Duration = .seconds(600)) throws(TestbedError)
        -> ChildTestRun {
        try ChildTestRun.run(filter: filter, behind: unprivilegedCommand([]), timeout: timeout)
    }

    /// Makes everything under `directory` usable by anyone: the ioctl
    /// sockets and the directories holding them (nodes in subdirectories,
    /// such as /dev/input/eventN, have theirs at ioctl/dev/input/eventN).
    private static func openUp(_ directory: String) {
        for path in Sysfs.entries(of: directory).map({ "\(directory)/\($0)" }) {
            chmod(path, 0o777)
            var info = stat()
            if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { openUp(path) }
        }
    }

    private typealias SetfsuidFunction = @convention(c) (uid_t) -> Int32

    private static var setfsuidFunction: SetfsuidFunction? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid") else { return nil }
        return unsafeBitCast(symbol, to: SetfsuidFunction.self)
    }
}
