// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import LibC
import MotionDevices
import SystemCalls
import SystemPackage
import I2C

/// `tiltmaze kiosk enable|disable`: a board that boots into the game on a
/// virtual console, through the unit tiltmaze-console@.service that the
/// package (or `make install`) puts in place. The steps are systemctl's own;
/// this command makes them one, and keeps what it changed so that disable
/// puts it back.
struct Kiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Make this board boot into the game on a console, or stop it doing so.",
        discussion: """
            enable makes tiltmaze-console@CONSOLE.service start at boot in place of \
            the console's login prompt (getty): the game runs there as a user made \
            for it in group tiltmaze, starts on the campaign, waits up to 30 s for a \
            sensor to appear, and logs to the journal (journalctl -u \
            tiltmaze-console@tty1). Quit in its menu starts it again, or powers the \
            board off with --on-quit poweroff; a game that keeps failing gives the \
            console back to a login prompt. It takes effect at the next boot, or at \
            once with: sudo systemctl start tiltmaze-console@tty1.

            The unit is sandboxed: it reaches its console, the screens, input nodes \
            and IIO sensors, and no I²C bus but the one enable names: the bus a \
            Sense HAT's LSM9DS1 answers on (probed as --source auto does), or \
            --i2c-bus N. disable undoes all of it, the login prompt included. Both \
            need root; with --root they change a system image under that directory \
            instead (an SD card being prepared: nothing is probed there, and its \
            links are followed inside it, never onto this machine), and start \
            or stop nothing.
            """,
        subcommands: [Enable.self, Disable.self]
    )

    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The virtual console the game takes.", valueName: "ttyN"))
        var console = "tty1"

        @Option(help: ArgumentHelp("Change the system image under this directory (as systemctl --root), not the running system.", valueName: "dir"))
        var root: String?

        func validate() throws {
            let number = console.hasPrefix("tty") ? Int(console.dropFirst(3)) : nil
            guard let number, (1 ... 63).contains(number), console == "tty\(number)" else {
                throw ValidationError("--console must be a virtual console, tty1 to tty63 (not \(console))")
            }
            if let root, !root.hasPrefix("/") {
                throw ValidationError("--root must be an absolute path (not \(root))")
            }
        }

        var unit: String { "tiltmaze-console@\(console).service" }
        var getty: String { "getty@\(console).service" }
        /// Where enable writes its drop-in (what it changed, and the quit
        /// action): its folder and the file, on this machine.
        func dropIn() throws -> (directory: String, file: String) {
            let directory = "/etc/systemd/system/\(unit).d"
            return (try onMachine(directory), try onMachine(directory + "/kiosk.conf"))
        }

        /// Where `path` of the system changed is on this machine: itself on
        /// the running system; in an image, resolved inside --root as
        /// systemctl --root resolves it (an image's links are absolute, and
        /// /etc/… in one must never reach this machine's /etc).
        func onMachine(_ path: String) throws -> String {
            guard let root else { return path }
            switch PathInsideRoot.resolve(path, inside: root) {
            case .success(let resolved): return resolved.path
            case .failure(let failure):
                throw ExitStatus.report("cannot follow \(path) inside the image under \(root): \(failure)", as: .unavailable)
            }
        }

        var live: Bool { root == nil }
        /// Start and stop too: only on a running system whose systemd is up (not in a chroot or an image).
        var startsAndStops: Bool { live && FilePath("/run/systemd/system").isAccessible(.exists) }

        /// systemctl, against the image when --root was given.
        func systemctl(_ arguments: String...) throws -> ChildProcess.Outcome {
            // By its path: this runs as root, and a PATH is the caller's to set.
            let command = [Self.systemctlPath] + (root.map { ["--root=\($0)"] } ?? []) + arguments
            // is-enabled answers on standard output, and words "no such unit" as an error.
            let question = arguments.first == "is-enabled"
            switch ChildProcess.run(command, capturingOutput: question, silencingErrors: question) {
            case .success(let outcome): return outcome
            case .failure(let errno):
                throw ExitStatus.report("cannot run systemctl (\(errno)): kiosk mode needs systemd", as: .unavailable)
            }
        }

        /// systemctl enable or disable of `unit`, with `--now` where units are started and stopped.
        func systemctl(_ verb: String, now unit: String) throws -> ChildProcess.Outcome {
            startsAndStops ? try systemctl(verb, "--now", unit) : try systemctl(verb, unit)
        }

        /// systemd's own, where Debian puts it (merged /usr), or where older systems did.
        static let systemctlPath = ["/usr/bin/systemctl", "/bin/systemctl"]
            .first { FilePath($0).isAccessible(.execute) } ?? "/usr/bin/systemctl"

        /// Fails, saying what could not be done and how things stand, unless systemctl succeeded.
        func mustSucceed(_ outcome: ChildProcess.Outcome, _ what: String, state: String) throws {
            guard outcome.ending == .exited(0) else {
                throw ExitStatus.report("systemctl could not \(what) (above); \(state)", as: .unavailable)
            }
        }

        /// Refuses before changing anything: not root, or the unit not installed.
        func checkReady() throws {
            if live && geteuid() != 0 {
                throw ExitStatus.report("kiosk changes the system's units: run it as root (sudo tiltmaze kiosk …)", as: .noPermission)
            }
            let places = ["/etc/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system", "/usr/local/lib/systemd/system"]
            let installed = try places.contains { FilePath(try onMachine($0 + "/tiltmaze-console@.service")).isAccessible(.exists) }
            guard installed else {
                throw ExitStatus.report("tiltmaze-console@.service is not installed\(root.map { " under \($0)" } ?? ""): install the tiltmaze package, or run sudo make install",
                                        as: .unavailable)
            }
        }
    }

    enum QuitAction: String, ExpressibleByArgument, CaseIterable {
        case restart, poweroff
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Boot into the game on a console (root).")

        @OptionGroup var options: Options

        @Option(help: "What Quit in the game's menu does: restart (the game starts again) or poweroff.")
        var onQuit: QuitAction = .restart

        @Option(name: .customLong("i2c-bus"),
                help: ArgumentHelp("The one I²C bus the game may use (/dev/i2c-N): by default the bus an LSM9DS1 (a Sense HAT) answers on, if any.",
                                   valueName: "N"))
        var i2cBus: Int?

        func validate() throws {
            if let i2cBus, !(0 ... 1023).contains(i2cBus) { throw ValidationError("--i2c-bus must be a bus number, 0 to 1023 (not \(i2cBus))") }
        }

        /// The bus named, or on the running system the one a chip the game reads over i2c-dev answers on.
        var bus: (number: Int, why: String)? {
            if let i2cBus { return (i2cBus, "--i2c-bus") }
            guard options.live, let imu = I2CProbe.probeAll(forAuto: true).probes.lazy.flatMap(\.imus).first else { return nil }
            return (imu.adapter.number, "\(imu) answers there")
        }

        func run() throws {
            try options.checkReady()
            let bus = self.bus
            let gettyEnabled = try options.systemctl("is-enabled", options.getty).output
                .split(separator: "\n").first == "enabled"
            // Kept from an earlier enable: the login prompt it turned off is still ours to give back.
            let dropIn = try options.dropIn()
            let gettyWasOurs = gettyEnabled || KioskDropIn.read(dropIn.file)?.gettyWasEnabled == true
            let text = KioskDropIn(onQuit: onQuit, gettyWasEnabled: gettyWasOurs, i2cBus: bus?.number).text
            if case .failure(let errno) = FilePath(dropIn.directory).makeDirectoryTree() {
                throw ExitStatus.report("cannot make \(dropIn.directory): \(errno)", as: .cannotWrite)
            }
            if case .failure(let errno) = Array(text.utf8).withUnsafeBytes({ AtomicFile.write($0, to: dropIn.file) }) {
                throw ExitStatus.report("cannot write \(dropIn.file): \(errno)", as: .cannotWrite)
            }
            // The game's unit first: if it cannot be enabled, the login prompt stays.
            try options.mustSucceed(options.systemctl("enable", options.unit), "enable \(options.unit)",
                                    state: "the login prompt on \(options.console) is left as it was")
            if gettyEnabled {
                try options.mustSucceed(options.systemctl("disable", options.getty), "turn off the login prompt on \(options.console)",
                                        state: "\(options.unit) is enabled beside it, and the two would race for the console at boot: run sudo systemctl disable \(options.getty)")
            }
            let quit = onQuit == .restart ? "Quit in its menu starts it again" : "Quit in its menu powers the board off"
            let why = options.live ? "no LSM9DS1 answers on one" : "an image's buses are not probed"
            print(bus.map { "The game may use /dev/i2c-\($0.number) (\($0.why)), and no other I²C bus." }
                ?? "The game may use no I²C bus (\(why); name one with --i2c-bus N).")
            if options.live {
                print("""
                    \(options.console) boots into TiltMaze from the next start; \(quit).
                    Start it now: sudo systemctl start \(options.unit)
                    Its messages: journalctl -u \(options.unit)
                    Undo: sudo tiltmaze kiosk disable\(options.console == "tty1" ? "" : " --console \(options.console)")
                    """)
            } else {
                print("\(options.console) of the image under \(options.root!) boots into TiltMaze; \(quit).")
            }
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give the console back to its login prompt (root).")

        @OptionGroup var options: Options

        func run() throws {
            try options.checkReady()
            let dropIn = try options.dropIn()
            let kept = KioskDropIn.read(dropIn.file)
            // Stopped too, on the running system: the login prompt comes back at once.
            try options.mustSucceed(options.systemctl("disable", now: options.unit), "disable \(options.unit)",
                                    state: "nothing was changed")
            if kept != nil {
                if case .failure(let errno) = nothingOrErrno({ unlink(dropIn.file) }), errno != .noSuchFileOrDirectory {
                    throw ExitStatus.report("cannot remove \(dropIn.file): \(errno)", as: .cannotWrite)
                }
                _ = FilePath(dropIn.directory).removeDirectory()
            }
            if kept?.gettyWasEnabled == true {
                try options.mustSucceed(options.systemctl("enable", now: options.getty), "enable \(options.getty) again",
                                        state: "the game no longer starts on \(options.console); enable its login prompt with sudo systemctl enable --now \(options.getty)")
            }
            print("\(options.console) no longer boots into TiltMaze" + (kept?.gettyWasEnabled == true ? "; its login prompt is back." : "."))
        }
    }
}

/// The drop-in `kiosk enable` writes beside the unit: the quit action, the
/// one I²C bus the game may use, and whether the console's login prompt was
/// enabled before (so that disable turns it on again only then).
struct KioskDropIn: Equatable {
    var onQuit: Kiosk.QuitAction
    var gettyWasEnabled: Bool
    var i2cBus: Int? = nil

    static let gettyLine = "# getty was enabled on this console before: kiosk disable enables it again."

    var text: String {
        var lines = ["# Written by `tiltmaze kiosk enable`; `tiltmaze kiosk disable` removes it."]
        if gettyWasEnabled { lines.append(Self.gettyLine) }
        if onQuit == .poweroff {
            lines += ["[Unit]", "# Quit in the game's menu ends it with status 0: the board powers off.", "SuccessAction=poweroff"]
        }
        if onQuit == .poweroff || i2cBus != nil { lines.append("[Service]") }
        if onQuit == .poweroff { lines += ["# A crash still starts the game again.", "Restart=on-failure"] }
        if let i2cBus {
            lines += ["# Group i2c opens every bus; the device policy lets this unit reach one.",
                      "SupplementaryGroups=i2c", "DeviceAllow=/dev/i2c-\(i2cBus) rw"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The drop-in at `path`, or nil when there is none.
    static func read(_ path: String) -> KioskDropIn? {
        guard case .success(let bytes) = FileContents.read(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let bus = lines.lazy.compactMap { line -> Int? in
            guard line.hasPrefix("DeviceAllow=/dev/i2c-"), line.hasSuffix(" rw") else { return nil }
            return Int(line.dropFirst("DeviceAllow=/dev/i2c-".count).dropLast(3))
        }.first
        return KioskDropIn(onQuit: lines.contains("SuccessAction=poweroff") ? .poweroff : .restart,
                           gettyWasEnabled: lines.contains(gettyLine), i2cBus: bus)
    }
}
