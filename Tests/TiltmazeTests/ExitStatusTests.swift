// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MockDevices
import Testing

/// The statuses a script can rely on (sysexits.h's); the other suites check
/// the status of each failure they provoke, this one what only it provokes.
@Suite("tiltmaze's exit statuses")
struct ExitStatusTests {
    @Test("the help, and so the manual page, lists every status with what it means")
    func listed() throws {
        let r = try ProgramRunner.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Exit status: 0 on success"), "\(r.stdout)")
        for status in [1, 64, 65, 66, 69, 70, 73, 74, 77] {
            #expect(r.stdout.range(of: "\n +\(status)  \\S", options: .regularExpression) != nil, "status \(status) not listed:\n\(r.stdout)")
        }
    }

    @Test("a device this user may not open ends with 77, naming it")
    func noPermission() throws {
        // Mode 000: refused to anyone but root, and the tests' root runs the program as nobody.
        let node = NSTemporaryDirectory() + "tiltmaze-closed-node-\(getpid())"
        #expect(FileManager.default.createFile(atPath: node, contents: Data(), attributes: [.posixPermissions: 0]))
        defer { unlink(node) }
        let r = try ProgramRunner.run(["monitor", "--source", "evdev:\(node)", "--samples", "1"],
                                      command: UnprivilegedFileAccess.unprivilegedCommand([ProgramRunner.binary]))
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains(node), "\(r.stderr)")
    }

    @Test("a campaign folder that is not there ends with 66, naming it")
    func campaignFolder() throws {
        let missing = try ProgramRunner.run(["play", "--campaign", "/nonexistent/campaign"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("/nonexistent/campaign: cannot play this folder as a campaign: no such folder"), "\(missing.stderr)")
    }
}

extension ExitStatusTests {
    @Test("docs/playing.md's table has the same statuses as the help")
    func documented() throws {
        let help = try ProgramRunner.run(["--help"]).stdout
        let list = help.components(separatedBy: "Exit status:").last?.components(separatedBy: "\n\n").first ?? ""
        let listed = Set(list.split(separator: "\n").dropFirst().compactMap { Int($0.split(separator: " ").first ?? "") })
        let doc = try String(contentsOf: KioskCommandTests.repository.appendingPathComponent("docs/playing.md"), encoding: .utf8)
        let table = doc.components(separatedBy: "### Exit statuses").last ?? ""
        let documented = Set(table.split(separator: "\n").prefix { !$0.hasPrefix("#") }.compactMap { line -> Int? in
            guard line.hasPrefix("| ") else { return nil }
            return Int(line.dropFirst(2).prefix { $0 != " " })
        })
        #expect(!listed.isEmpty)
        #expect(documented == listed.union([0]), "help: \(listed.sorted()), docs/playing.md: \(documented.sorted())")
    }
}
