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

    @Test("every RUN is the installed helper with our group, for IIO devices and input nodes; nothing is run for a trigger or in configfs")
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
                case "device":
                    #expect(words.count == 5 && words[3] == "/sys%p" && words[4] == "$devnode", "\(run)")
                    #expect(rule.values(of: "SUBSYSTEM") == ["iio"] && rule.values(of: "KERNEL") == ["iio:device[0-9]*"], "\(run)")
                case "input":
                    #expect(words.count == 4 && words[3] == "$devnode", "\(run)")
                    #expect(rule.values(of: "SUBSYSTEM") == ["input"] && rule.values(of: "KERNEL") == ["event[0-9]*"], "\(run)")
                default:
                    Issue.record("line \(rule.line): the helper run for \(words[2])")
                }
            }
        }
        #expect(kinds == ["device", "input"])
    }

    @Test("no keyboard is given to the group: every input rule that runs the helper excludes what udev calls a keyboard")
    func noKeyboards() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        let granting = rules.filter { $0.values(of: "RUN").contains { $0.contains(" input ") } }
        #expect(granting.count == 3)
        for rule in granting {
            #expect(rule.pairs.contains { $0.key == "ENV" && $0.attribute == "ID_INPUT_KEYBOARD" && $0.op == "!=" && $0.value == "1" },
                    "line \(rule.line) may give a keyboard to the group")
        }
    }

    @Test("the only trigger rule sets the boot-time hrtimer's rate on its add event; nothing else writes an attribute")
    func triggerRate() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        let writing = rules.filter { rule in rule.pairs.contains { $0.key == "ATTR" && $0.op == "=" } }
        #expect(writing.count == 1)
        let rule = try #require(writing.first)
        #expect(rule.values(of: "KERNEL") == ["trigger[0-9]*"] && rule.values(of: "ACTION") == ["add"])
        #expect(rule.pairs.contains { $0.key == "ATTR" && $0.attribute == "name" && $0.op == "==" && $0.value == TriggerChoice.hrtimerName })
        let rate = try #require(rule.pairs.first { $0.key == "ATTR" && $0.attribute == "sampling_frequency" && $0.op == "=" })
        #expect(Double(rate.value) == 200, "the rate play and record ask for by default")
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
        #expect(rules.allSatisfy { $0.values(of: "RUN").allSatisfy { !$0.contains("setfacl") } }, "ACL entries are the helper's to add")
    }

    @Test("the input rules cover accelerometer nodes, game controllers and the Sense HAT joystick the code looks for")
    func inputMatches() throws {
        let rules = try UdevRuleFile(parsing: try Self.text("udev/70-tiltmaze.rules")).rules
        let input = rules.filter { $0.values(of: "SUBSYSTEM") == ["input"] }
        #expect(input.contains { rule in rule.pairs.contains { $0.key == "ENV" && $0.attribute == "ID_INPUT_ACCELEROMETER" && $0.value == "1" } })
        #expect(input.contains { rule in rule.pairs.contains { $0.key == "ENV" && $0.attribute == "ID_INPUT_JOYSTICK" && $0.value == "1" } },
                "PadControls reads gamepads, which udev marks ID_INPUT_JOYSTICK")
        let joystick = input.flatMap { rule in rule.pairs.filter { $0.key == "ATTRS" && $0.attribute == "name" } }.map(\.value)
        #expect(Set(joystick) == ["Raspberry Pi Sense HAT Joystick"])
        #expect(joystick.count == 2, "one rule for the seat's user (uaccess), one for the group's ACL entry")
        #expect(joystick.allSatisfy { $0.contains("Sense HAT Joystick") }, "PadControls recognises the joystick by this")
    }

    @Test("the installer, the unit and the READMEs name the same group, files and trigger")
    func filesAgree() throws {
        let install = try Self.text("udev/install.sh")
        #expect(install.contains("group=\(Self.group)\n"))
        #expect(install.contains("helper=\(Self.helperPath)\n"))
        #expect(install.contains("rules=/etc/udev/rules.d/70-tiltmaze.rules\n"))
        #expect(install.contains("\"$helper\" \"$group\" revoke-triggers"))

        let unit = try Self.text("udev/tiltmaze-hrtimer.service")
        let trigger = "\(HrtimerTrigger.hrtimerDirectory())/\(TriggerChoice.hrtimerName)"
        #expect(unit.contains("ExecStart=/bin/mkdir -p \(trigger)\n"))
        #expect(unit.contains("ExecStop=/bin/rmdir \(trigger)\n"))
        #expect(unit.contains("ReadWritePaths=-\(HrtimerTrigger.hrtimerDirectory())\n"))
        #expect(unit.contains("Wants=modprobe@iio_trig_hrtimer.service"))
        #expect(unit.contains("CapabilityBoundingSet=\n"))
        #expect(!unit.contains("ExecStartPre") && !unit.contains("ExecStartPost"), "one command, sandboxed")
        let kiosk = try Self.text("systemd/tiltmaze-console@.service")
        #expect(kiosk.contains("After=tiltmaze-hrtimer.service\n"), "the kiosk lets go of the trigger before it is removed")
        #expect(kiosk.contains("SupplementaryGroups=\(Self.group) video\n"), "the kiosk is in group input again")
        #expect(!kiosk.contains("/sys/kernel/config"), "the kiosk may write configfs")

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
