import ArgumentParser
import Diagnostics
import MotionDevices

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the motion sensors found, what they offer, and whether you may use them."
    )

    func run() throws {
        let selection = SensorSelection.examine()
        if let failure = selection.iioFailure {
            printError("cannot read the IIO devices: \(failure)")
            throw ExitCode(1)
        }
        print(DeviceListing.lines(for: selection).joined(separator: "\n"))
    }
}
