// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MotionCore
import MotionDevices
import MockDevices

@Suite("Device access explanations")
struct DeviceAccessTests {
    @Test("a readable file is allowed")
    func allowed() {
        let a = DeviceAccess.check("/proc/self/status", need: .read)
        #expect(a.allowed)
        #expect(a.explanation.isEmpty)
    }

    @Test("a missing node says so and asks about the driver")
    func missing() {
        let a = DeviceAccess.check("/dev/iio:device99-not-here", need: .readWrite)
        #expect(!a.allowed)
        #expect(a.explanation.contains("missing"))
        #expect(a.explanation.contains("driver"))
    }

    @Test("a file this user may not write names owner, group and mode and says what to do (as nobody under root)")
    func notWritable() throws {
        guard getuid() != 0 else {
            // Root may write anything: the same test, as nobody, in a child.
            let run = try UnprivilegedFileAccess.rerunAsNobody("MotionDevicesTests.DeviceAccessTests/notWritable()")
            #expect(run.passed && run.tests.count == 1, "\(run)")
            return
        }
        let path = NSTemporaryDirectory() + "tiltmaze-access-\(getpid())"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        chmod(path, 0o444)
        let a = DeviceAccess.check(path, need: .readWrite)
        #expect(!a.allowed)
        #expect(a.explanation.contains("mode 444"))
        #expect(a.explanation.contains("udev/README.md"))
    }

    @Test("a node the group may use, but the user is not in the group: join it")
    func joinGroup() {
        let why = DeviceAccess.explain(need: .readWrite, owner: "root", group: "iio", mode: 0o660,
                                       inGroupNow: false, listedInGroup: false)
        #expect(why == "not readable and writable by you: owner root, group iio, mode 660; join group iio (sudo usermod -aG iio $USER) and log in again")
    }

    @Test("added to the group since this login: log in again")
    func reloginPending() {
        let why = DeviceAccess.explain(need: .read, owner: "root", group: "input", mode: 0o640,
                                       inGroupNow: false, listedInGroup: true)
        #expect(why.hasSuffix("you were added to group input but this login predates it: log out and in again"))
    }

    @Test("a node only root may use: install the udev rules")
    func rootOnly() {
        let why = DeviceAccess.explain(need: .readWrite, owner: "root", group: "root", mode: 0o600,
                                       inGroupNow: false, listedInGroup: false)
        #expect(why.hasSuffix("install the udev rules (sudo udev/install.sh; udev/README.md) to give group access"))
        let readOnlyGroup = DeviceAccess.explain(need: .readWrite, owner: "root", group: "iio", mode: 0o640,
                                                 inGroupNow: true, listedInGroup: false)
        #expect(readOnlyGroup.contains("udev/README.md"))
    }

    @Test("an I²C bus, which the rules do not cover: the fix is its own group (Pi OS's i2c), never the rules or their group")
    func i2cBus() {
        let notInGroup = DeviceAccess.explain(need: .readWrite, owner: "root", group: "i2c", mode: 0o660,
                                              inGroupNow: false, listedInGroup: false, ruleGroup: .missing, grantedBy: .nobody)
        #expect(notInGroup == "not readable and writable by you: owner root, group i2c, mode 660; join group i2c (sudo usermod -aG i2c $USER) and log in again")
        let rootOnly = DeviceAccess.explain(need: .readWrite, owner: "root", group: "root", mode: 0o600,
                                            inGroupNow: false, listedInGroup: false, ruleGroup: .missing, grantedBy: .nobody)
        #expect(rootOnly.contains("TiltMaze's udev rules leave I²C buses alone") && rootOnly.contains("raspi-config nonint do_i2c 0"))
        #expect(!rootOnly.contains("udev/README.md") && !rootOnly.contains("tiltmaze"))
    }

    @Test("with the rules installed, the fix for an IIO sensor is the rules' group, even for a node whose own group is another")
    func ruleGroupFix() {
        let notMember = DeviceAccess.explain(need: .read, owner: "root", group: "iio", mode: 0o660,
                                             inGroupNow: false, listedInGroup: false, ruleGroup: .notMember)
        #expect(notMember == "not readable by you: owner root, group iio, mode 660; join group tiltmaze (sudo usermod -aG tiltmaze $USER) and log in again")
        let pending = DeviceAccess.explain(need: .readWrite, owner: "root", group: "tiltmaze", mode: 0o660,
                                           inGroupNow: false, listedInGroup: true, ruleGroup: .pendingRelogin)
        #expect(pending.hasSuffix("; you were added to group tiltmaze but this login predates it: log out and in again"))
    }

    @Test("in the rules' group and still refused: the rules do not cover the file")
    func ruleGroupMemberRefused() {
        let why = DeviceAccess.explain(need: .readWrite, owner: "root", group: "root", mode: 0o644,
                                       inGroupNow: false, listedInGroup: false, ruleGroup: .member)
        #expect(why.hasSuffix("; you are in group tiltmaze but the udev rules do not cover it: reinstall them (sudo udev/install.sh; udev/README.md) and re-trigger udev"))
        // A node of another group that would let the user in: joining that group is still a fix.
        let video = DeviceAccess.explain(need: .readWrite, owner: "root", group: "video", mode: 0o660,
                                         inGroupNow: false, listedInGroup: false, ruleGroup: .member)
        #expect(video.hasSuffix("; join group video (sudo usermod -aG video $USER) and log in again"))
    }

    @Test("a screen or controller is the seat's: the fix is its own group, or logging in at the board; never group tiltmaze")
    func seat() {
        let video = DeviceAccess.explain(need: .readWrite, owner: "root", group: "video", mode: 0o660,
                                         inGroupNow: false, listedInGroup: false, grantedBy: .seat)
        #expect(video == "not readable and writable by you: owner root, group video, mode 660; join group video (sudo usermod -aG video $USER) and log in again")
        let rootOnly = DeviceAccess.explain(need: .read, owner: "root", group: "root", mode: 0o600,
                                            inGroupNow: false, listedInGroup: false, grantedBy: .seat)
        #expect(rootOnly.contains("log in at the board itself") && !rootOnly.contains("group tiltmaze"), "\(rootOnly)")
    }

    @Test("membership of a group that does not exist is .missing; of this process's own group, .member")
    func membership() {
        #expect(GroupMembership.of("tiltmaze-no-such-group") == .missing)
        if let own = getgrgid(getegid()) {
            #expect(GroupMembership.of(String(cString: own.pointee.gr_name)) == .member)
        }
    }
}

/// A package user has no `udev/` folder: advice must name what is there.
@Suite("Where permission advice sends a player")
struct UdevGuideTests {
    @Test("a program in a source tree points into the tree")
    func sourceTree() {
        let guide = UdevGuide(executable: "/home/pi/tiltmaze/.build/release/tiltmaze", fileExists: { _ in false })
        #expect(guide == UdevGuide(executable: nil, fileExists: { _ in true }))
        #expect(guide.instructions == "udev/README.md" && guide.install == "sudo udev/install.sh")
    }

    @Test("the package's program points to the instructions it installed, and to reinstalling it")
    func package() {
        let guide = UdevGuide(executable: "/usr/bin/tiltmaze", fileExists: { $0 == "/usr/share/doc/tiltmaze/udev.md" })
        #expect(guide.instructions == "/usr/share/doc/tiltmaze/udev.md")
        #expect(guide.install == "sudo apt install --reinstall tiltmaze")
    }

    @Test("make install's program points under its prefix")
    func makeInstall() {
        let guide = UdevGuide(executable: "/usr/local/bin/tiltmaze",
                              fileExists: { $0 == "/usr/local/share/doc/tiltmaze/udev.md" })
        #expect(guide.instructions == "/usr/local/share/doc/tiltmaze/udev.md")
        #expect(guide.install == "sudo make install, from the source tree")
    }

    @Test("an installed-looking program without the instructions beside it is treated as a source build")
    func missingInstructions() {
        let guide = UdevGuide(executable: "/usr/bin/tiltmaze", fileExists: { _ in false })
        #expect(guide.instructions == "udev/README.md")
    }
}
