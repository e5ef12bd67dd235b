// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser

@main
struct TiltMaze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltmaze",
        abstract: "Roll a ball through a maze by tilting a real motion sensor (or the keyboard).",
        discussion: """
            With no subcommand, `tiltmaze` plays. Sensors are read from IIO devices
            (libiio) or evdev input nodes (libevdev); with none attached, a simulated
            board tilted by the arrow keys stands in.
            """,
        version: tiltmazeVersion,
        subcommands: [Play.self, Levels.self, CalibrateCommand.self, ColorTiltCommand.self, Devices.self, Monitor.self, Record.self, Generate.self, Doctor.self, SnapshotCommand.self, Kiosk.self],
        defaultSubcommand: Play.self
    )
}
