// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import Diagnostics
import MotionDevices

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the motion sensors found, what they offer, and whether you may use them."
    )

    @Option(name: .customLong("iio-uri"), help: ArgumentHelp("List the IIO sensors of another machine through its iiod: a libiio URI such as ip:raspberrypi.local (as libiio's tools take -u).", valueName: "uri"))
    var iioURI: String?

    func run() throws {
        let selection = SensorSelection.examine(iioURI: iioURI)
        if let failure = selection.iioFailure {
            throw ExitStatus.report(iioURI == nil ? "cannot read the IIO devices: \(failure)" : failure, as: .unavailable)
        }
        print(DeviceListing.lines(for: selection, calibrations: SourceOptions.calibrations).joined(separator: "\n"))
    }
}
