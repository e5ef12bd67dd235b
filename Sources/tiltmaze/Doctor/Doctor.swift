import ArgumentParser
import Foundation
import MotionDevices

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

/// What `doctor` found: its lines, and the sensor `play` would use, if any.
struct DoctorReport {
    let environment: [String: String]
    private(set) var lines: [DoctorLine] = []
    /// How the first usable real sensor is named to the player, nil when none is.
    private(set) var sensor: String?

    init(environment: [String: String]) { self.environment = environment }

    /// Runs every check, in the order hardware.md lists them.
    mutating func examine() {
        lines.append(DoctorReport.libraries())
        let selection = SensorSelection.examine()
        let iio = IIOFindings(selection)
        let evdev = EvdevFindings(selection)
        let imuUsable = selection.imus.contains { $0.refusal == nil }
        let nodeUsable = selection.evdev.contains { $0.refusal == nil }
        lines += iio.lines(anotherSensorUsable: nodeUsable)
        lines.append(DoctorReport.group())
        lines += iio.triggerLines()
        lines += evdev.lines(anotherSensorUsable: imuUsable)
        lines += DoctorReport.framebuffers()
        lines.append(DoctorReport.terminal(environment))
        lines.append(DoctorReport.config(environment))
        sensor = selection.choice?.description
        if let sensor {
            lines.append(.ok("ready", "tiltmaze play will use \(sensor)"))
        } else {
            let fix = lines.contains { $0.status == .fail }
                ? "Fix the FAIL lines above (hardware.md, Troubleshooting)"
                : "None was found: wire an IMU or connect a controller (hardware.md)"
            lines.append(.fail("ready", "no motion sensor you can use; tiltmaze play would fall back to the simulated board. \(fix)"))
        }
    }
}
