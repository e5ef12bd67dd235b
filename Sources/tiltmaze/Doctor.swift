// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import Diagnostics
import Displays
import Render

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check this machine for play: libraries, sensors, access, triggers, screens.",
        discussion: """
            One line per finding, starting OK, WARN or FAIL; a line that is not
            OK says what to do. hardware.md (Troubleshooting) explains each check.
            The sensor play would use is then read for up to three seconds
            (the live line), unless --no-live.
            Exit status 0 only when a real motion sensor can be used; 1 otherwise.
            """
    )

    @Flag(inversion: .prefixedNo, help: "Read the sensor play would use for a moment (the live line).")
    var live = true

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var report = DoctorReport(environment: environment,
                                  truecolour: ColorMode.detect(environment: environment) == .truecolor)
        report.examine(live: live)
        print(report.lines.map(\.description).joined(separator: "\n"))
        if report.sensor == nil { throw ExitStatus.problemsFound.exitCode }
    }
}
