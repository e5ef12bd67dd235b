import ArgumentParser
import Foundation
import Diagnostics

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check this machine for play: libraries, sensors, access, triggers, screens.",
        discussion: """
            One line per finding, starting OK, WARN or FAIL; a line that is not
            OK says what to do. hardware.md (Troubleshooting) explains each check.
            Exit status 0 only when a real motion sensor can be used; 1 otherwise.
            """
    )

    func run() throws {
        var report = DoctorReport(environment: ProcessInfo.processInfo.environment)
        report.examine()
        print(report.lines.map(\.description).joined(separator: "\n"))
        if report.sensor == nil { throw ExitCode(1) }
    }
}
