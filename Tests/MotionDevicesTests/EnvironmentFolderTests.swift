// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionDevices
import SystemCalls
import TestSupport

/// Root given a user's environment (`sudo -E`) must not write in a folder
/// that user can change. A folder of another user's can be made only by
/// root, so the refusals are tested when the tests run as root (CI, this
/// project's build machine), and skipped otherwise.
@Suite("Folders from the environment, for root")
struct EnvironmentFolderTests {
    static let isRoot = geteuid() == 0
    static let needsRoot = "only root can give a folder to another user (chown); these tests run as uid \(geteuid())"
    /// nobody: a user other than root that every Linux system has.
    static let other: uid_t = 65534

    /// A folder inside a fresh temporary one (root's, 0700), owned by `owner`.
    static func folder(_ dir: TemporaryDirectory, _ name: String, owner: uid_t) throws -> String {
        let path = dir.path + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try #require(chown(path, owner, owner) == 0, "chown \(path): errno \(errno)")
        return path
    }

    /// The state folder, as the progress store (in Game) chooses it.
    static func state(_ environment: [String: String], effectiveUID: uid_t) -> EnvironmentFolder {
        EnvironmentFolder.choose("XDG_STATE_HOME", else: ".local/state", environment: environment, effectiveUID: effectiveUID)
    }

    @Test("a user other than root gets the folder as the environment names it, unchecked, as before")
    func notRoot() throws {
        let dir = TemporaryDirectory()
        let theirs = Self.isRoot ? try Self.folder(dir, "theirs", owner: Self.other) : dir.path
        #expect(ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": theirs], effectiveUID: 1000) == .usable(theirs + "/tiltmaze"))
        #expect(Self.state(["HOME": theirs], effectiveUID: 1000) == .usable(theirs + "/.local/state/tiltmaze"))
        #expect(ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": "rel"], effectiveUID: 1000) == .unnamed)
    }

    @Test("root is refused a config folder owned by another user: the refusal names it and says what to do",
          .enabled(if: isRoot, Comment(rawValue: needsRoot)))
    func refusedConfig() throws {
        let dir = TemporaryDirectory()
        let theirs = try Self.folder(dir, "theirs", owner: Self.other)
        let environment = ["XDG_CONFIG_HOME": theirs, "HOME": "/root"]
        guard case .refused(let refusal) = ConfigDirectory.choose(environment: environment, effectiveUID: 0) else {
            Issue.record("root was given \(theirs), owned by uid \(Self.other)")
            return
        }
        #expect(refusal == .init(folder: theirs + "/tiltmaze", variable: "XDG_CONFIG_HOME",
                                 reason: "\(theirs) is owned by uid \(Self.other), not root"))
        let writability = ConfigDirectory.writability(environment: environment, effectiveUID: 0)
        #expect(!writability.maySave)
        let problem = try #require(writability.problem)
        #expect(problem.hasPrefix("\(theirs)/tiltmaze is not root's alone (\(theirs) is owned by uid \(Self.other), not root)"), "\(problem)")
        #expect(problem.contains("settings and calibration are neither read nor saved there"), "\(problem)")
        #expect(problem.hasSuffix("Run it without -E (plain sudo), or set XDG_CONFIG_HOME to a folder of root's"), "\(problem)")
        // Nothing to read or write through: no store is made.
        #expect(CalibrationStore.standard(environment: environment, effectiveUID: 0) == nil)
    }

    @Test("root is refused a state folder under a HOME of another user's, though the folder itself is root's",
          .enabled(if: isRoot, Comment(rawValue: needsRoot)))
    func refusedBeneathTheirs() throws {
        let dir = TemporaryDirectory()
        let home = try Self.folder(dir, "home", owner: Self.other)
        // Made by an earlier sudo run: root's, but its owner's parent can swap it for a link.
        let state = try Self.folder(dir, "home/.local/state/tiltmaze", owner: 0)
        guard case .refused(let refusal) = Self.state(["HOME": home], effectiveUID: 0) else {
            Issue.record("root was given \(state) beneath \(home), owned by uid \(Self.other)")
            return
        }
        #expect(refusal.variable == "HOME")
        #expect(refusal.reason == "\(home) is owned by uid \(Self.other), not root")
    }

    @Test("root is refused a link owned by another user, even to a folder of root's",
          .enabled(if: isRoot, Comment(rawValue: needsRoot)))
    func refusedLink() throws {
        let dir = TemporaryDirectory()
        let mine = try Self.folder(dir, "mine", owner: 0)
        let link = dir.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: mine)
        try #require(lchown(link, Self.other, Self.other) == 0)
        guard case .refused(let refusal) = ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": link], effectiveUID: 0) else {
            Issue.record("root followed \(link), a link owned by uid \(Self.other)")
            return
        }
        #expect(refusal.reason == "\(link) is a link owned by uid \(Self.other), not root")
    }

    @Test("root keeps a folder of its own, made or yet to be made, and one reached through a link of its own",
          .enabled(if: isRoot, Comment(rawValue: needsRoot)))
    func rootsOwn() throws {
        let dir = TemporaryDirectory()
        #expect(ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": dir.path], effectiveUID: 0) == .usable(dir.path + "/tiltmaze"))
        let made = try Self.folder(dir, "state/tiltmaze", owner: 0)
        #expect(Self.state(["XDG_STATE_HOME": dir.path + "/state"], effectiveUID: 0) == .usable(made))
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: dir.path + "/state")
        #expect(Self.state(["XDG_STATE_HOME": dir.path + "/link"], effectiveUID: 0) == .usable(dir.path + "/link/tiltmaze"))
        #expect(ConfigDirectory.writability(environment: ["XDG_CONFIG_HOME": dir.path], effectiveUID: 0).maySave)
    }

    @Test("root is refused a folder others may write, and one to be made in a folder others may write, sticky or not",
          .enabled(if: isRoot, Comment(rawValue: needsRoot)))
    func writableByOthers() throws {
        let dir = TemporaryDirectory()
        let open = try Self.folder(dir, "open", owner: 0)
        try #require(chmod(open, 0o777) == 0)
        let refused = ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": open + "/conf"], effectiveUID: 0)
        #expect(refused == .refused(.init(folder: open + "/conf/tiltmaze", variable: "XDG_CONFIG_HOME",
                                          reason: "\(open) can be written by others (mode 777)")))
        try #require(chmod(open, 0o1777) == 0)
        // Sticky, like /tmp: a folder of root's inside is root's alone, a name still to be made is not.
        _ = try Self.folder(dir, "open/conf", owner: 0)
        try #require(chmod(open + "/conf", 0o700) == 0)
        #expect(ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": open + "/conf"], effectiveUID: 0).path == open + "/conf/tiltmaze")
        #expect(ConfigDirectory.choose(environment: ["XDG_CONFIG_HOME": open + "/other"], effectiveUID: 0)
            == .refused(.init(folder: open + "/other/tiltmaze", variable: "XDG_CONFIG_HOME",
                              reason: "\(open), where it would be made, can be written by others (mode 1777)")))
    }

    @Test("root inside a user namespace is the user who made it, outside")
    func userNamespace() {
        #expect(EnvironmentFolder.outside(0, uidMap: "         0          0 4294967295\n") == 0)
        #expect(EnvironmentFolder.outside(0, uidMap: "         0       1000          1\n") == 1000)
        #expect(EnvironmentFolder.outside(5, uidMap: "0 1000 1\n1 100000 65536\n") == 100004)
        #expect(EnvironmentFolder.outside(0, uidMap: "") == 0)
    }
}
