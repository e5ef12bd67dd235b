// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Whether this process runs under umockdev's preload, and running a mock
/// suite in a child process that does, so that a plain `swift test` covers
/// the mock-device tests.
///
/// The pattern, per mock suite file:
/// ```
/// extension MockDeviceSuites {
///     @Suite(.enabled(if: UmockdevPreload.isActive)) struct MPU6050 { … }
/// }
/// @Suite struct MPU6050UnderPreload {
///     @Test(.enabled(if: !UmockdevPreload.isActive)) func passes() throws {
///         let run = try UmockdevPreload.rerun(suite: "IIOTests.MockDeviceSuites/MPU6050/")
///         #expect(run.passed, "\(run)")   // every test in the child passed
///     }
/// }
/// ```
public enum UmockdevPreload {
    /// Whether `LD_PRELOAD` holds libumockdev-preload (as `umockdev-wrapper` sets it).
    public static var isActive: Bool {
        guard let preload = getenv("LD_PRELOAD") else { return false }
        return String(cString: preload).contains("libumockdev-preload")
    }

    /// `umockdev-wrapper` found on `PATH`, if installed.
    public static var wrapperPath: String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/umockdev-wrapper"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs this test binary again, under `umockdev-wrapper`, with only the
    /// tests whose id matches `suite` (e.g. "IIOTests.MockDeviceSuites/MPU6050"),
    /// and waits up to `timeout` for it; kills that child if it overruns.
    public static func rerun(suite: String, timeout: Duration = .seconds(600)) throws(TestbedError) -> ChildTestRun {
        guard let wrapper = wrapperPath else {
            throw TestbedError("umockdev-wrapper is not installed (Debian package umockdev)")
        }
        return try ChildTestRun.run(filter: suite, behind: [wrapper], timeout: timeout)
    }
}
