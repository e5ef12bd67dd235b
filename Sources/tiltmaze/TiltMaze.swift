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

            """ + "\n" + ExitStatus.listing,
        version: tiltmazeVersion,
        subcommands: [Play.self, Levels.self, CalibrateCommand.self, ColorTiltCommand.self, Devices.self, Monitor.self, Record.self, Generate.self, Doctor.self, SnapshotCommand.self, Kiosk.self],
        defaultSubcommand: Play.self
    )

    /// As ArgumentParser's own, but a bare word that is no command (`tiltmaze foo`,
    /// read as an argument to `play`, the default) is told which commands there are instead.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // One mistake, one line: ArgumentParser's own would add play's usage, which was not asked for.
            if let hint = unknownCommandHint(arguments) {
                StandardStream.error.write(hint + "\n")
                exit(withError: ExitStatus.usage.exitCode)
            }
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            // Ours are sorted by kind; ArgumentParser's own (a usage error, --help) it words itself.
            exit(withError: ExitStatus(for: error) != nil ? ExitStatus.report(error) : error)
        }
    }

    /// "tiltmaze: 'foo' is not a command; …" when the first argument is a bare word and no command.
    static func unknownCommandHint(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(first) else { return nil }
        return "tiltmaze: '\(first)' is not a command; the commands are \(names.joined(separator: ", ")) (`tiltmaze help COMMAND` says more)"
    }
}
