// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import TestSupport

/// A config folder that cannot be written, and a settings file that cannot
/// be read, are said at start, with the advice that fits; nothing is
/// tried at the end that the start said cannot be done.
///
/// A read-only file system is made for real: a tmpfs mounted read-only in
/// a mount namespace of the program's own (`unshare -r -m`, no privilege
/// needed where user namespaces are allowed). A folder chmod 0555 would
/// not do: it stops no root.
@Suite("the config folder: read-only, or holding a bad settings file", .serialized)
struct ConfigFolderTests {
    /// Runs what follows `"$1"` with a read-only tmpfs mounted on the folder `$1`.
    static let readOnlyMount = "mount -t tmpfs -o ro none \"$1\" && shift && exec \"$@\""

    static let canMountReadOnly: Bool = {
        let dir = TemporaryDirectory()
        let r = try? ProgramRunner.shell("/usr/bin/unshare", ["-r", "-m", "sh", "-c", readOnlyMount, "sh", dir.path, "/bin/true"])
        return r?.status == 0
    }()

    @Test("doctor names a read-only file system as one, with remounting for advice, not the folder's owner",
          .enabled(if: canMountReadOnly, "unshare -r -m cannot mount here (no user namespaces)"))
    func doctorReadOnly() throws {
        let dir = TemporaryDirectory()
        let r = try ProgramRunner.run(["doctor", "--no-live"],
                                      command: ["/usr/bin/unshare", "-r", "-m", "sh", "-c", Self.readOnlyMount, "sh", dir.path,
                                                ProgramRunner.binary],
                                      environment: ["XDG_CONFIG_HOME": dir.path])
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("config:") }, "\(r.stdout)\(r.stderr)")
        #expect(line.hasPrefix("WARN config: \(dir.path) is on a read-only file system"), "\(line)")
        #expect(line.contains("Remount it read-write") && line.contains("findmnt -T \(dir.path)") && line.contains("XDG_CONFIG_HOME"), "\(line)")
        #expect(!line.contains("ls -ld"), "\(line)")
    }

    /// Plays the first level in tmux with standard error kept in a file:
    /// what it holds while the game is on screen was said at start.
    static func playing(_ prefix: String, environment: String, errors: String) throws -> TmuxPane {
        let pane = try TmuxPane(columns: 100, rows: 30)
        _ = try pane.waitFor { $0.contains("shell$") }
        try pane.send("\(prefix) env \(environment) \(ProgramRunner.binary) play --source sim --level \(ProgramRunner.firstRoll) 2>\(errors); echo tiltmaze-exit=$?",
                      literal: true)
        try pane.send("Enter")
        _ = try pane.waitFor { $0.contains("First Roll") && $0.contains("sensor: simulated") }
        return pane
    }

    @Test("play with its config on a read-only file system: said once at start, with the advice; nothing tried at quit",
          .enabled(if: canMountReadOnly, "unshare -r -m cannot mount here (no user namespaces)"))
    func playReadOnly() throws {
        let dir = TemporaryDirectory()
        let errors = TemporaryDirectory()
        let log = errors.path + "/stderr"
        let pane = try Self.playing("unshare -r -m sh -c '\(Self.readOnlyMount)' sh \(dir.path)",
                                    environment: "XDG_CONFIG_HOME=\(dir.path)", errors: log)
        let atStart = try String(contentsOfFile: log, encoding: .utf8)
        #expect(atStart.contains("\(dir.path) is on a read-only file system") && atStart.contains("Remount it read-write")
            && atStart.contains("this game plays without saving them"), "\(atStart)")
        try pane.send("q")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"), "\(after)")
        let all = try String(contentsOfFile: log, encoding: .utf8)
        #expect(all.components(separatedBy: "read-only file system").count == 2, "said once: \(all)")
        #expect(!all.contains("cannot make") && !all.contains("unchanged") && !all.contains("not saved"), "\(all)")
    }

    @Test("play with a settings.json that is no settings file: said at start, set aside, and played as shipped")
    func playBadSettings() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path + "/tiltmaze", withIntermediateDirectories: true)
        try "not json".write(toFile: dir.path + "/tiltmaze/settings.json", atomically: true, encoding: .utf8)
        let errors = TemporaryDirectory()
        let log = errors.path + "/stderr"
        let pane = try Self.playing("", environment: "XDG_CONFIG_HOME=\(dir.path)", errors: log)
        let atStart = try String(contentsOfFile: log, encoding: .utf8)
        #expect(atStart.contains("\(dir.path)/tiltmaze/settings.json is not a settings file") && atStart.contains("played as shipped"),
                "\(atStart)")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/tiltmaze/settings.json.bad"))
        try pane.send("q")
        let after = try pane.waitFor { TmuxPane.showsExit($0) }
        #expect(after.contains("tiltmaze-exit=0"), "\(after)")
    }
}
