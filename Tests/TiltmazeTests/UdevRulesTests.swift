// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import IIO
import MotionCore
import MotionDevices

/// The files in udev/: every rule parses, grants only what the game uses,
/// and names the same group, paths and trigger as the code, the installer,
/// the unit and hardware.md.
@Suite("udev rules, their helper and the hrtimer unit")
struct UdevRulesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// Where install.sh puts the helper, and so where the rules must call it.
    static let helperPath = "/usr/local/lib/tiltmaze/tiltmaze-sysfs-access"
    static let group = DeviceAccess.ruleGroup

    /// Every `*.rules` file in udev/.
    static func ruleFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("udev").path)
            .filter { $0.hasSuffix(".rules") }.sorted().map { "udev/" + $0 }
    }

    @Test("udev/ has rule files, and every line of each parses")
    func everyLineParses() throws {
        let files = try Self.ruleFiles()
        #expect(files == ["udev/70-tiltmaze.rules"])
        for file in files {
            let rules = try UdevRuleFile(parsing: try Self.text(file)).rules
            #expect(rules.count >= 8, "\(file)")
        }
    }

    @Test("the parser refuses what udev would skip", arguments: [
        ("SUBSYSTEM==\"iio\" GROUP=\"tiltmaze\"", "comma"),
        ("SUBSYSTEM==iio, GROUP=\"tiltmaze\"", "double quotes"),
        ("SUBSYSTEM=\"iio\"", "only compares"),
        ("GROUP==\"tiltmaze\"", "only assigns"),
        ("SUBSYSTEMZ==\"iio\"", "not a udev key"),
        ("ENV==\"1\"", "needs {name}"),
        ("KERNEL{x}==\"1\"", "takes no"),
        ("SUBSYSTEM==\"iio\", GROUP=\"tiltmaze", "not closed"),
        ("RUN+=\"/bin/x $devnod\"", "unknown substitution $devnod"),
        ("RUN+=\"/bin/x %q\"", "unknown substitution %q"),
        ("GOTO=\"nowhere\"", "no LABEL"),
        ("SUBSYSTEM==\"iio\", \\", "ends inside"),
        ("SUBSYSTEM<\"iio\"", "operator"),
    ])
    func refuses(rule: String, complaint: String) {
        #expect { try UdevRuleFile(parsing: rule) } throws: { "\($0)".contains(complaint) }
    }

    @Test("the parser reads continued lines, comments and escaped quotes")
    func reads() throws {
        let file = try UdevRuleFile(parsing: """
            # comment
            SUBSYSTEM=="input", \\
              ATTRS{name}=="say \\"hi\\"", RUN+="/bin/true %p $env{X}"

            """)
        #expect(file.rules.count == 1)
        #expect(file.rules[0].line == 2)
        #expect(file.rules[0].pairs.map(\.key) == ["SUBSYSTEM", "ATTRS", "RUN"])
        #expect(file.rules[0].pairs[1] == .init(key: "ATTRS", attribute: "name", op: "==", value: "say \"hi\""))
    }

    @Test("every group named is the code's group; no mode lets others write, or read a sensor")
    func groupsAndModes() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        // The IIO node's group and mode are the helper's to set: only it can tell a motion sensor.
        let groups = rules.flatMap { $0.values(of: "GROUP") }
        #expect(groups.allSatisfy { $0 == Self.group })
        for mode in rules.flatMap({ $0.values(of: "MODE") }) {
            let bits = try #require(Int(mode, radix: 8), "MODE \(mode) is not octal")
            #expect(bits & 0o007 == 0, "MODE \(mode) gives others access")
        }
        #expect(rules.allSatisfy { $0.values(of: "OWNER").isEmpty }, "the rules give nodes to a group, not a user")
    }

    @Test("every RUN is the installed helper with our group; no ACL entry is added for anyone")
    func runPrograms() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        var kinds: Set<String> = []
        for rule in rules {
            for run in rule.values(of: "RUN") {
                let words = run.split(separator: " ").map(String.init)
                guard words.first == Self.helperPath else {
                    Issue.record("line \(rule.line): RUN of an unexpected program: \(run)")
                    continue
                }
                #expect(words[1] == Self.group, "\(run)")
                kinds.insert(words[2])
                switch words[2] {
                case "hrtimer": #expect(words.count == 4 && words[3] == HrtimerTrigger.hrtimerDirectory(), "\(run)")
                case "device": #expect(words.count == 5 && words[3] == "/sys%p" && words[4] == "$devnode", "\(run)")
                default: #expect(words.count == 4 && words[3] == "/sys%p", "\(run)")
                }
                #expect(rule.values(of: "SUBSYSTEM") == [words[2] == "hrtimer" ? "module" : "iio"], "\(run)")
            }
        }
        #expect(kinds == ["device", "trigger", "hrtimer"])
    }

    @Test("screens and controllers go to the seat's user through logind (uaccess), to no group; DRM cards are left to systemd's own rule")
    func seatAccess() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        var tagged: Set<String> = []
        for rule in rules where !rule.values(of: "TAG").isEmpty {
            #expect(rule.values(of: "TAG") == ["uaccess"], "line \(rule.line)")
            #expect(rule.pairs.first { $0.key == "TAG" }?.op == "+=", "line \(rule.line): TAG must add, not replace")
            tagged.formUnion(rule.values(of: "SUBSYSTEM"))
        }
        #expect(tagged == ["input", "graphics"])
        #expect(rules.allSatisfy { !$0.values(of: "SUBSYSTEM").contains("drm") }, "systemd's 70-uaccess.rules covers DRM cards")
        #expect(rules.allSatisfy { $0.values(of: "RUN").allSatisfy { !$0.contains("setfacl") } })
    }

    @Test("the input rules cover accelerometer nodes and the Sense HAT joystick the code looks for")
    func inputMatches() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        let input = rules.filter { $0.values(of: "SUBSYSTEM") == ["input"] }
        #expect(input.contains { rule in rule.pairs.contains { $0.key == "ENV" && $0.attribute == "ID_INPUT_ACCELEROMETER" && $0.value == "1" } })
        let joystick = input.flatMap { rule in rule.pairs.filter { $0.key == "ATTRS" && $0.attribute == "name" } }.map(\.value)
        #expect(joystick == ["Raspberry Pi Sense HAT Joystick"])
        #expect(joystick.allSatisfy { $0.contains("Sense HAT Joystick") }, "PadControls recognises the joystick by this")
    }

    @Test("the installer, the unit and the READMEs name the same group, files and trigger")
    func filesAgree() throws {
        let install = try Self.text("udev/install.sh")
        #expect(install.contains("group=\(Self.group)\n"))
        #expect(install.contains("helper=\(Self.helperPath)\n"))
        #expect(install.contains("rules=/etc/udev/rules.d/70-tiltmaze.rules\n"))
        #expect(install.contains("hrtimer_dir=\(HrtimerTrigger.hrtimerDirectory())\n"))

        let unit = try Self.text("udev/tiltmaze-hrtimer.service")
        let trigger = "\(HrtimerTrigger.hrtimerDirectory())/\(TriggerChoice.hrtimerName)"
        #expect(unit.contains("ExecStart=/bin/mkdir -p \(trigger)\n"))
        #expect(unit.contains("ExecStop=/bin/rmdir \(trigger)\n"))
        #expect(unit.contains("ExecStartPost=-\(Self.helperPath) \(Self.group) hrtimer \(HrtimerTrigger.hrtimerDirectory())\n"))
        #expect(unit.contains("ExecStartPre=/sbin/modprobe iio-trig-hrtimer\n"))

        let readme = try Self.text("udev/README.md")
        for needle in ["**`\(Self.group)`**", Self.helperPath, "/etc/udev/rules.d/70-tiltmaze.rules",
                       "groupadd --system \(Self.group)", "usermod -aG \(Self.group)", "tiltmaze-hrtimer.service"] {
            #expect(readme.contains(needle), "udev/README.md does not mention \(needle)")
        }
        let hardware = try Self.text("hardware.md")
        for needle in ["group `\(Self.group)`", "udev/install.sh", "udev/README.md", trigger,
                       "tiltmaze-hrtimer.service", "usermod -aG \(Self.group)", "ACCEL_MOUNT_MATRIX"] {
            #expect(hardware.contains(needle), "hardware.md does not mention \(needle)")
        }
    }

    @Test("the shell scripts parse", arguments: ["udev/install.sh", "udev/tiltmaze-sysfs-access"])
    func scriptsParse(script: String) throws {
        let r = try ProgramRunner.shell("/bin/sh", ["-n", Self.repository.appendingPathComponent(script).path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test("hardware.md's troubleshooting has a section for every check doctor reports")
    func troubleshootingCoversDoctor() throws {
        let hardware = try Self.text("hardware.md")
        for check in ["libraries", "IIO", "IIO access", "group", "trigger", "evdev", "framebuffer", "terminal", "config", "ready"] {
            #expect(hardware.contains("\n### \(check)\n"), "hardware.md has no ### \(check)")
        }
    }
}
