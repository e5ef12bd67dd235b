// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MockDevices
import SystemCalls
import Testing
import TestSupport
import SystemPackage

@Suite("running another program (ChildProcess)")
struct ChildProcessTests {
    @Test("its exit status and its standard output come back")
    func exitAndOutput() throws {
        let outcome = try ChildProcess.run(["sh", "-c", "echo one; echo two; exit 3"], capturingOutput: true).get()
        #expect(outcome.ending == .exited(3))
        #expect(outcome.output == "one\ntwo\n")
    }

    @Test("a program killed by a signal is told apart from one that exited")
    func killed() throws {
        let outcome = try ChildProcess.run(["sh", "-c", "kill -TERM $$"]).get()
        #expect(outcome.ending == .killed(signal: SIGTERM))
    }

    @Test("a program that is not there is an error, not an exit status",
          .disabled(if: Emulation.isQemuUser, Comment(rawValue: Emulation.spawnErrors)))
    func missing() {
        let result = ChildProcess.run(["tiltmaze-no-such-program-\(getpid())"])
        guard case .failure(let errno) = result else {
            Issue.record("started a program that does not exist: \(result)")
            return
        }
        #expect(errno == .noSuchFileOrDirectory)
    }
}

@Suite("tiltmaze kiosk")
struct KioskCommandTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("a console that is not a virtual console, or a relative --root, is refused", arguments: [
        (["kiosk", "enable", "--console", "tty0"], "tty1 to tty63 (not tty0)"),
        (["kiosk", "enable", "--console", "ttyS0"], "tty1 to tty63 (not ttyS0)"),
        (["kiosk", "disable", "--console", "tty64"], "tty1 to tty63 (not tty64)"),
        (["kiosk", "enable", "--root", "mnt/card"], "--root must be an absolute path (not mnt/card)"),
        (["kiosk", "enable", "--on-quit", "explode"], "--on-quit"),
        (["kiosk", "enable", "--i2c-bus=-1"], "--i2c-bus must be a bus number"),
    ])
    func refused(arguments: [String], message: String) throws {
        let r = try ProgramRunner.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("without the unit installed, enable names what to install and changes nothing")
    func unitMissing() throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let r = try ProgramRunner.run(["kiosk", "enable", "--root", root])
        #expect(r.status == 69)
        #expect(r.stderr.contains("tiltmaze-console@.service is not installed under \(root): install the tiltmaze package, or run sudo make install"), "\(r.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: root).isEmpty)
    }

    /// A system image with the console unit and a getty enabled on tty1, as
    /// Debian ships it, for systemctl --root to work on.
    static func image() throws -> String {
        let root = try temporaryRoot()
        let units = root + "/usr/lib/systemd/system"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("systemd/tiltmaze-console@.service").path,
                                         toPath: units + "/tiltmaze-console@.service")
        try """
            [Unit]
            Description=Getty on %I
            [Service]
            ExecStart=-/sbin/agetty -o '-p -- \\\\u' --noclear - $TERM
            [Install]
            WantedBy=getty.target
            DefaultInstance=tty1

            """.write(toFile: units + "/getty@.service", atomically: true, encoding: .utf8)
        let wants = root + "/etc/systemd/system/getty.target.wants"
        try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: wants + "/getty@tty1.service", withDestinationPath: "/usr/lib/systemd/system/getty@.service")
        return root
    }

    static func temporaryRoot() throws -> String {
        let root = NSTemporaryDirectory() + "tiltmaze-kiosk-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// Every path under `root` with where a link points: the state systemctl changes.
    static func tree(_ root: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: root).sorted().map { path in
            let link = try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)
            return path + (link.map { " -> \($0)" } ?? "")
        }
    }

    static var hasSystemctl: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/systemctl") || FileManager.default.isExecutableFile(atPath: "/bin/systemctl") }

    @Test("enable --root puts the game in the login prompt's place on tty1, with the quit action; disable puts all back",
          .enabled(if: hasSystemctl, "systemctl (package systemd) is not installed"))
    func enableAndDisable() throws {
        let root = try Self.image()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = try Self.tree(root)

        let enable = try ProgramRunner.run(["kiosk", "enable", "--root", root, "--on-quit", "poweroff"])
        #expect(enable.status == 0, "\(enable.stderr)")
        #expect(enable.stdout.contains("tty1 of the image under \(root) boots into TiltMaze; Quit in its menu powers the board off."), "\(enable.stdout)")
        let wants = root + "/etc/systemd/system/multi-user.target.wants/tiltmaze-console@tty1.service"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants)) == "/usr/lib/systemd/system/tiltmaze-console@.service")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/system/getty.target.wants/getty@tty1.service")) == nil,
                "the login prompt is still enabled on tty1")
        let dropIn = try String(contentsOfFile: root + "/etc/systemd/system/tiltmaze-console@tty1.service.d/kiosk.conf", encoding: .utf8)
        #expect(dropIn.contains("\nSuccessAction=poweroff\n"), "\(dropIn)")
        #expect(dropIn.contains("\nRestart=on-failure\n"), "\(dropIn)")

        // Enabled again with the other quit action: the drop-in changes, and the getty is still remembered.
        let again = try ProgramRunner.run(["kiosk", "enable", "--root", root])
        #expect(again.status == 0, "\(again.stderr)")
        let restart = try String(contentsOfFile: root + "/etc/systemd/system/tiltmaze-console@tty1.service.d/kiosk.conf", encoding: .utf8)
        #expect(!restart.contains("SuccessAction"), "\(restart)")

        let disable = try ProgramRunner.run(["kiosk", "disable", "--root", root])
        #expect(disable.status == 0, "\(disable.stderr)")
        #expect(disable.stdout.contains("tty1 no longer boots into TiltMaze; its login prompt is back."), "\(disable.stdout)")
        #expect(try Self.tree(root) == before)
    }

    @Test("--i2c-bus lets the unit reach that one bus (group i2c, its node in the device policy), and disable takes it away again",
          .enabled(if: hasSystemctl, "systemctl (package systemd) is not installed"))
    func oneBus() throws {
        let root = try Self.image()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = try Self.tree(root)
        let enable = try ProgramRunner.run(["kiosk", "enable", "--root", root, "--i2c-bus", "1", "--on-quit", "poweroff"])
        #expect(enable.status == 0, "\(enable.stderr)")
        #expect(enable.stdout.contains("The game may use /dev/i2c-1 (--i2c-bus), and no other I²C bus."), "\(enable.stdout)")
        let dropIn = try String(contentsOfFile: root + "/etc/systemd/system/tiltmaze-console@tty1.service.d/kiosk.conf", encoding: .utf8)
        let service = dropIn.components(separatedBy: "[Service]\n").last ?? ""
        #expect(dropIn.components(separatedBy: "[Service]").count == 2, "one [Service] section: \(dropIn)")
        #expect(service.contains("\nSupplementaryGroups=i2c\n") && service.contains("\nDeviceAllow=/dev/i2c-1 rw\n"), "\(dropIn)")
        #expect(service.contains("Restart=on-failure\n"), "\(dropIn)")
        // Without a bus: none in the unit, and said so.
        let without = try ProgramRunner.run(["kiosk", "enable", "--root", root])
        #expect(without.stdout.contains("The game may use no I²C bus"), "\(without.stdout)")
        let plain = try String(contentsOfFile: root + "/etc/systemd/system/tiltmaze-console@tty1.service.d/kiosk.conf", encoding: .utf8)
        #expect(!plain.contains("i2c"), "\(plain)")
        #expect(try ProgramRunner.run(["kiosk", "disable", "--root", root]).status == 0)
        #expect(try Self.tree(root) == before)
    }

    @Test("a console whose login prompt was not enabled gets none from disable",
          .enabled(if: hasSystemctl, "systemctl (package systemd) is not installed"))
    func otherConsole() throws {
        let root = try Self.image()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = try Self.tree(root)
        let enable = try ProgramRunner.run(["kiosk", "enable", "--root", root, "--console", "tty3"])
        #expect(enable.status == 0, "\(enable.stderr)")
        // (Links read, not followed: they point into the image's /usr, not this machine's.)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/system/multi-user.target.wants/tiltmaze-console@tty3.service")) != nil)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/etc/systemd/system/getty.target.wants/getty@tty1.service")) != nil,
                "enabling tty3 touched tty1's login prompt")
        let disable = try ProgramRunner.run(["kiosk", "disable", "--root", root, "--console", "tty3"])
        #expect(disable.status == 0, "\(disable.stderr)")
        #expect(disable.stdout.contains("tty3 no longer boots into TiltMaze."), "\(disable.stdout)")
        #expect(try Self.tree(root) == before)
    }

    @Test("an image's absolute link is followed inside the image: enable and disable write nothing on this machine",
          .enabled(if: hasSystemctl, "systemctl (package systemd) is not installed"))
    func linksStayInside() throws {
        let root = try Self.image()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // This machine's folder, as /etc/systemd/system would be: a link in the image names it.
        let host = TemporaryDirectory("tiltmaze-host")
        try FileManager.default.createSymbolicLink(atPath: root + "/etc/systemd/system/tiltmaze-console@tty1.service.d",
                                                   withDestinationPath: host.path)
        let enable = try ProgramRunner.run(["kiosk", "enable", "--root", root, "--on-quit", "poweroff"])
        #expect(enable.status == 0, "\(enable.stderr)")
        #expect(host.names().isEmpty, "written on this machine: \(host.names())")
        let inside = root + host.path + "/kiosk.conf"
        let dropIn = try String(contentsOfFile: inside, encoding: .utf8)
        #expect(dropIn.contains("\nSuccessAction=poweroff\n"), "\(dropIn)")

        // A drop-in of this machine's under the same name is neither read nor removed.
        try "[Unit]\nSuccessAction=poweroff\n".write(toFile: host.path + "/kiosk.conf", atomically: false, encoding: .utf8)
        let disable = try ProgramRunner.run(["kiosk", "disable", "--root", root])
        #expect(disable.status == 0, "\(disable.stderr)")
        #expect(host.names() == ["kiosk.conf"])
        #expect(!FileManager.default.fileExists(atPath: inside), "the image's drop-in was left")
    }

    @Test("the unit reached through an absolute link inside the image is found there, not looked for on this machine",
          .enabled(if: hasSystemctl, "systemctl (package systemd) is not installed"))
    func unitThroughLink() throws {
        let root = try Self.image()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Where the image keeps it, and a link as a package manager might leave one: absolute, meant for the image.
        let kept = "/opt/tiltmaze-\(getpid())/tiltmaze-console@.service"
        try FileManager.default.createDirectory(atPath: root + "/opt/tiltmaze-\(getpid())", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: root + "/usr/lib/systemd/system/tiltmaze-console@.service", toPath: root + kept)
        try FileManager.default.createSymbolicLink(atPath: root + "/usr/lib/systemd/system/tiltmaze-console@.service", withDestinationPath: kept)
        #expect(!FileManager.default.fileExists(atPath: kept))
        let enable = try ProgramRunner.run(["kiosk", "enable", "--root", root])
        #expect(!enable.stderr.contains("is not installed"), "\(enable.stderr)")
        #expect(enable.status == 0, "\(enable.stderr)")
    }

    @Test("enable on the running system asks for root when not run as root")
    func needsRoot() throws {
        // As root (CI), the same check run as nobody.
        let r = try ProgramRunner.run(["kiosk", "enable"], command: UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary]))
        #expect(r.status == 77)
        #expect(r.stderr.contains("run it as root"), "\(r.stderr)")
    }
}

@Suite("--wait-for-sensor")
struct WaitForSensorTests {
    @Test("is refused where there is nothing to wait for, or out of range", arguments: [
        (["monitor", "--source", "sim", "--wait-for-sensor", "5"], "use it with --source auto, iio, evdev or i2c"),
        (["monitor", "--source", "replay:/tmp/x.tiltrec", "--wait-for-sensor", "5"], "use it with --source auto, iio, evdev or i2c"),
        (["play", "--wait-for-sensor", "700"], "between 0 and 600 seconds"),
        (["monitor", "--wait-for-sensor=-1"], "between 0 and 600 seconds"),
    ])
    func refused(arguments: [String], message: String) throws {
        let r = try ProgramRunner.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
