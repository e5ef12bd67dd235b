// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import TestSupport

@Suite("tiltmaze on the command line (no terminal)")
struct CommandLineTests {
    @Test("play with standard output not a terminal fails with a clear message and no escape codes, exit status 69")
    func notATerminal() throws {
        let r = try ProgramRunner.run(["play", "--source", "sim"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("not a terminal"))
        #expect(!r.stdout.contains("\u{1b}"))
        #expect(!r.stderr.contains("\u{1b}["))
    }

    @Test("a malformed level file is reported with file, line and column, exit status 65")
    func malformedLevel() throws {
        let path = NSTemporaryDirectory() + "tiltmaze-bad-level-\(getpid()).txt"
        try "title: Bad\nmaze:\n#####\n#S%E#\n#####\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let r = try ProgramRunner.run(["play", "--level", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(path):4:3: unexpected `%` in the maze"))
    }

    @Test("a missing level file is named in the error, exit status 66")
    func missingLevel() throws {
        let r = try ProgramRunner.run(["play", "--level", "/nonexistent/level.txt"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("/nonexistent/level.txt: cannot read the level file: no such file"))
    }

    @Test("an unknown option prints usage and fails with status 64")
    func unknownOption() throws {
        let r = try ProgramRunner.run(["play", "--frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Usage: tiltmaze play"))
        #expect(r.stderr.contains("--frobnicate"))
    }

    @Test("a word that is no command: one line naming it and the commands, status 64, no usage of play")
    func unknownCommand() throws {
        let r = try ProgramRunner.run(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("tiltmaze: 'frobnicate' is not a command; the commands are play, "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("Usage") && !r.stderr.contains("Unexpected argument"), "\(r.stderr)")
    }

    @Test("an unknown source is refused with the accepted values")
    func unknownSource() throws {
        let r = try ProgramRunner.run(["play", "--source", "telepathy"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("auto"))
        #expect(r.stderr.contains("sim"))
    }

    @Test("a negative number after an option is checked as a number, not taken for a missing value",
          arguments: [(["monitor", "--source", "sim", "--sensor-rate", "-5"], "--sensor-rate must be between 10 and 5000"),
                      (["play", "--physics-rate", "-5"], "--physics-rate must be between 30 and 2000"),
                      (["monitor", "--samples", "-3"], "--samples must be at least 1"),
                      (["record", "/nonexistent/x.tmrec", "--seconds", "-2"], "--seconds must be more than 0"),
                      (["monitor", "--wait-for-sensor", "-1"], "--wait-for-sensor must be between 0 and 600")])
    func negativeNumbers(arguments: [String], error: String) throws {
        let r = try ProgramRunner.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(error), "\(r.stderr)")
        #expect(!r.stderr.contains("Missing value"), "\(r.stderr)")
    }

    @Test("every command's help shows defaults as they are typed, never a Swift value's dump",
          arguments: ["play", "calibrate", "colortilt", "monitor", "record", "generate", "devices", "doctor", "levels"])
    func helpDefaults(command: String) throws {
        let r = try ProgramRunner.run([command, "--help"])
        #expect(r.status == 0)
        let help = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!help.contains("Optional("), "\(help)")
        #expect(help.firstMatch(of: /default: [A-Z][A-Za-z]+\(/) == nil, "\(help)")
        if ["play", "calibrate", "colortilt"].contains(command) {
            #expect(help.contains("fb,sensehat, kms,sensehat, terminal,sensehat; default: auto)"), "\(help)")
        }
    }

    @Test("--help describes play and its keys")
    func help() throws {
        let r = try ProgramRunner.run(["play", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--source"))
        #expect(r.stdout.contains("--level"))
        #expect(r.stdout.contains("space levels it"))
    }
}

@Suite("tiltmaze monitor")
struct MonitorCommandTests {
    @Test("--json --samples N prints N JSON lines with time, accel, gyro and device, then exits")
    func jsonSamples() throws {
        let r = try ProgramRunner.run(["monitor", "--source", "sim", "--json", "--samples", "25"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 25)
        var last: Int64 = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let t = try #require((object["t_ns"] as? NSNumber)?.int64Value)
            #expect(t > last)
            last = t
            let accel = try #require(object["accel"] as? [Double])
            #expect(accel.count == 3)
            #expect(abs((accel[0] * accel[0] + accel[1] * accel[1] + accel[2] * accel[2]).squareRoot() - 9.80665) < 1e-9)
            #expect((object["gyro"] as? [Double])?.count == 3)
            #expect(object["device"] as? String == "simulated board (keyboard tilt)")
        }
    }

    @Test("the text monitor reports the measured rate and the drop count")
    func textMonitor() throws {
        let r = try ProgramRunner.run(["monitor", "--source", "sim", "--sensor-rate", "500", "--samples", "800"])
        #expect(r.status == 0)
        let last = try #require(r.stdout.split(separator: "\n").last)
        #expect(last.contains("m/s²"))
        #expect(last.contains("Hz"))
        #expect(last.contains("dropped 0"))
        #expect(r.stderr.contains("reading simulated board"))
    }

    @Test("--reference magnetic-north: the attitude is north-referenced, with the compass heading and the field")
    func magneticNorth() throws {
        // A board lying flat and turning left at 0.6 rad/s, in a field 20 µT north and 40 µT down.
        let dir = TemporaryDirectory()
        let path = dir.path + "/turning.csv"
        var text = "t_ns,ax,ay,az,gx,gy,gz,mx,my,mz\n"
        func yaw(_ t: Double) -> Double { 0.5 + 0.6 * t }
        // 100 samples: ProgramRunner reads the output when the program has ended, so it must fit a pipe.
        for i in 0 ..< 100 {
            let t = Double(i) / 20, a = yaw(t)
            // The field in the board: the earth vector turned back by the yaw.
            text += "\(Int64(t * 1e9)),0,0,9.80665,0,0,0.6,\(20 * cos(a)),\(-20 * sin(a)),-40\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ProgramRunner.run(["monitor", "--source", "replay:" + path, "--json", "--reference", "magnetic-north"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["reference"] as? String == "magnetic-north")
        // The top edge points yaw + 90° counter-clockwise from north: clockwise that is 270° − yaw.
        var expected = (270 - yaw(4.95) * 180 / .pi).truncatingRemainder(dividingBy: 360)
        if expected < 0 { expected += 360 }
        let heading = try #require((object["heading"] as? NSNumber)?.doubleValue)
        #expect(abs(heading - expected) < 0.5, "heading \(heading)°, expected \(expected)°")
        let field = try #require(object["magnetic_field"] as? [String: Any])
        #expect(field["accuracy"] as? String == "uncalibrated")
        #expect((field["field"] as? [Double])?.count == 3)
        // In the arbitrary frame there is no heading: −1, as CoreMotion gives it.
        let arbitrary = try ProgramRunner.run(["monitor", "--source", "replay:" + path, "--json", "--reference", "arbitrary",
                                               "--samples", "3"])
        #expect(arbitrary.stdout.split(separator: "\n").allSatisfy { $0.contains("\"heading\":-1") })
        let wrong = try ProgramRunner.run(["monitor", "--reference", "south"])
        #expect(wrong.status != 0 && wrong.stderr.contains("arbitrary") && wrong.stderr.contains("magnetic-north"),
                "\(wrong.stderr)")
    }

    @Test("--samples 0 is refused")
    func zeroSamples() throws {
        let r = try ProgramRunner.run(["monitor", "--samples", "0"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--samples must be at least 1"))
    }
}
