// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Foundation

/// A path in the temporary directory no other test uses (the suites' tests run in parallel).
func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "tiltmaze-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
}

@Suite("record, replay, monitor --json and play --headless")
struct RecordReplayTests {

    @Test("record saves a recording of the simulated board; monitor replays every sample with the fused fields; no temporary file stays")
    func recordThenMonitor() throws {
        let file = temporary("sim.tmr")
        defer { unlink(file) }
        let r = try ProgramRunner.run(["record", file, "--source", "sim", "--seconds", "0.5", "--sensor-rate", "100"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("saved \(file): "), "\(r.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bytes.starts(with: Data("TILTMAZE RECORDING 1\ndevice: simulated board (keyboard tilt)\nidentity: simulated board\nrate_hz: 100.0\n".utf8)))
        let directory = (file as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix((file as NSString).lastPathComponent + ".tmp") }
        #expect(leftovers.isEmpty)

        let m = try ProgramRunner.run(["monitor", "--source", "replay:\(file)", "--json"])
        #expect(m.status == 0, "\(m.stderr)")
        let lines = m.stdout.split(separator: "\n")
        let headerSize = bytes.firstRange(of: Data("\n\n".utf8))!.upperBound
        #expect(lines.count == (bytes.count - headerSize) / 57)
        #expect(lines.count >= 40)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            for key in ["t_ns", "accel", "gyro", "gravity", "attitude", "user_accel", "rotation_rate", "device"] {
                #expect(object[key] != nil, "\(key) missing from \(line)")
            }
            let gravity = object["gravity"] as! [Double]
            #expect(abs(gravity[2] + 9.80665) < 0.01, "a level board: \(line)")
            #expect((object["attitude"] as! [Double]).count == 4)
        }
    }

    @Test("play --headless on the same recording twice gives the same outcome line; a CSV plays too")
    func headlessTwice() throws {
        let file = temporary("tilt.csv")
        defer { unlink(file) }
        // A board lowered on its right for three seconds, at 100 Hz.
        var csv = "t_ns,ax,ay,az,gx,gy,gz\n"
        for i in 0..<300 {
            csv += "\(1_000_000_000 + i * 10_000_000),-2.5,0.3,9.4,0,0,0\n"
        }
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let a = try ProgramRunner.run(["play", "--source", "replay:\(file)", "--headless"])
        let b = try ProgramRunner.run(["play", "--source", "replay:\(file)", "--headless"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
        #expect(a.stdout == b.stdout)
        let object = try JSONSerialization.jsonObject(with: Data(a.stdout.utf8)) as! [String: Any]
        #expect(object["won"] as? Bool == false)
        #expect((object["trajectory_hash"] as? String)?.count == 16)
        #expect(object["steps"] as? Int == 718)   // 2.99 s from first sample to last, at 240 steps a second, rounded up
        #expect(a.stdout.split(separator: "\n").count == 1)
    }

    @Test("a malformed replay file is named with its line and what was expected, exit status 65; a missing one 66")
    func malformed() throws {
        let file = temporary("bad.csv")
        defer { unlink(file) }
        try "t_ns,ax,ay,az,gx,gy,gz\n1,0,0,9.8,0,0,0\n2,0,zero,9.8,0,0,0\n".write(toFile: file, atomically: true, encoding: .utf8)
        for args in [["play", "--source", "replay:\(file)", "--headless"], ["monitor", "--source", "replay:\(file)", "--json"]] {
            let r = try ProgramRunner.run(args)
            #expect(r.status == 65)
            #expect(r.stderr == "tiltmaze: \(file): line 3: field 3 (ay): expected a number in m/s², found \"zero\"\n")
            #expect(r.stdout.isEmpty)
        }
        let missing = try ProgramRunner.run(["play", "--source", "replay:/nonexistent/x.tmr", "--headless"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read the recording /nonexistent/x.tmr: No such file"), "\(missing.stderr)")
    }

    @Test("--headless needs a recording; record refuses a replay source and a place it cannot write, leaving nothing")
    func refusals() throws {
        let headless = try ProgramRunner.run(["play", "--source", "sim", "--headless"])
        #expect(headless.status == 64 && headless.stderr.contains("--headless plays a recording: give --source replay:FILE"))
        let replay = try ProgramRunner.run(["record", "x.tmr", "--source", "replay:y.tmr"])
        #expect(replay.status == 64 && replay.stderr.contains("record reads a sensor"))
        let nowhere = try ProgramRunner.run(["record", "/nonexistent/dir/x.tmr", "--source", "sim", "--seconds", "0.2"])
        #expect(nowhere.status == 73)
        #expect(nowhere.stderr.contains("cannot write the recording next to /nonexistent/dir/x.tmr"), "\(nowhere.stderr)")
    }
}

/// No file a user made is replaced without their say; a recording left
/// half-done by a killed record is never replayed.
@Suite("record: existing files and leftovers")
struct RecordOverwriteTests {
    @Test("record refuses a FILE that exists (73), keeping its bytes, before any sensor is read; --force replaces it")
    func existingFile() throws {
        let file = temporary("mine.tmr")
        defer { unlink(file) }
        let mine = Data("a file the user made\n".utf8)
        try mine.write(to: URL(fileURLWithPath: file))
        let refused = try ProgramRunner.run(["record", file, "--source", "sim", "--seconds", "0.2"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr == "tiltmaze: \(file) exists: choose another name, remove it first, or give --force to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == mine)
        let forced = try ProgramRunner.run(["record", file, "--source", "sim", "--seconds", "0.2", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Data("TILTMAZE RECORDING 1\n".utf8)))
    }

    @Test("kill -9 during record: the temporary it leaves is refused by every replay (65), and the next record removes it, saying so")
    func killedRecord() throws {
        let file = temporary("killed.tmr")
        defer { unlink(file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ProgramRunner.binary)
        p.arguments = ["record", file, "--source", "sim", "--sensor-rate", "100"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let leftover = file + ".tmp-\(p.processIdentifier)"
        defer { unlink(leftover) }
        // Samples on disk: the header and the first batch flushed (60 KB, about 10 s at 100 Hz).
        let deadline = Date().addingTimeInterval(Emulation.hangBound(90))
        while ((try? FileManager.default.attributesOfItem(atPath: leftover)[.size] as? Int) ?? 0) < 60 * 1024 && Date() < deadline {
            usleep(50_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: file))
        // Whatever its name: renamed to look like a recording, it is still refused.
        let renamed = temporary("renamed.tmr")
        defer { unlink(renamed) }
        try FileManager.default.copyItem(atPath: leftover, toPath: renamed)
        for path in [leftover, renamed] {
            for args in [["monitor", "--source", "replay:\(path)", "--json", "--samples", "5"], ["play", "--source", "replay:\(path)", "--headless"]] {
                let r = try ProgramRunner.run(args)
                #expect(r.status == 65, "\(args): \(r.stderr)")
                #expect(r.stderr.contains("a recording never saved") && r.stderr.contains("none of it is replayed"), "\(r.stderr)")
                #expect(r.stdout.isEmpty)
            }
        }
        let next = try ProgramRunner.run(["record", file, "--source", "sim", "--seconds", "0.2"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("removed \(leftover): a recording never saved") && next.stderr.contains("process \(p.processIdentifier) is gone"),
                "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }
}

@Suite("tiltmaze generate and play --maze")
struct GenerateCommandTests {
    @Test("generate prints a level file that --level plays; the same seed prints the same maze; --out never replaces a file")
    func generate() throws {
        let a = try ProgramRunner.run(["generate", "--seed", "12", "--size", "31x15"])
        let b = try ProgramRunner.run(["generate", "--seed", "12", "--size", "31x15"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        #expect(a.stdout.hasPrefix("# TiltMaze level: tiltmaze generate --seed 12 --size 31x15\ntitle: Random maze 31x15, seed 12\n"))
        let file = NSTemporaryDirectory() + "tiltmaze-\(getpid())-maze.txt"
        defer { unlink(file) }
        let written = try ProgramRunner.run(["generate", "--seed", "12", "--size", "31x15", "--out", file])
        #expect(written.status == 0 && written.stderr == "tiltmaze: wrote \(file): Random maze 31x15, seed 12\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == a.stdout)
        let again = try ProgramRunner.run(["generate", "--seed", "13", "--out", file])
        #expect(again.status == 73 && again.stderr.contains("\(file) exists") && again.stderr.contains("--force"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == a.stdout)
        let forced = try ProgramRunner.run(["generate", "--seed", "13", "--size", "31x15", "--out", file, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("seed 13"))
        let restored = try ProgramRunner.run(["generate", "--seed", "12", "--size", "31x15", "--out", file, "--force"])
        #expect(restored.status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == a.stdout)
        // The generated file and --maze random:12 are the same level: the same game from the same recording.
        let csv = NSTemporaryDirectory() + "tiltmaze-\(getpid())-maze.csv"
        defer { unlink(csv) }
        try ("t_ns,ax,ay,az,gx,gy,gz\n" + (0..<200).map { "\(1_000_000_000 + $0 * 10_000_000),-1.5,0.5,9.6,0,0,0" }.joined(separator: "\n"))
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let fromFile = try ProgramRunner.run(["play", "--level", file, "--source", "replay:\(csv)", "--headless"])
        let fromSeed = try ProgramRunner.run(["play", "--maze", "random:12", "--size", "31x15", "--source", "replay:\(csv)", "--headless"])
        #expect(fromFile.status == 0 && fromFile.stdout == fromSeed.stdout, "\(fromFile.stderr)\(fromSeed.stderr)")
    }

    @Test("sizes out of range, two choices of what to play, and a --start past a folder's levels are refused with the reason")
    func refusals() throws {
        let small = try ProgramRunner.run(["generate", "--size", "5x5"])
        #expect(small.status == 64 && small.stderr.contains("the maze width must be 7 to 201 cells, not 5"))
        let both = try ProgramRunner.run(["play", "--maze", "random", "--level", "x.txt"])
        #expect(both.status == 64 && both.stderr.contains("--maze, --level and --campaign each choose what to play: give one"))
        let folder = try ProgramRunner.run(["play", "--campaign", "levels/campaign", "--level", "x.txt"])
        #expect(folder.status != 0 && folder.stderr.contains("each choose what to play"))
        let campaign = URL(fileURLWithPath: ProgramRunner.firstRoll).deletingLastPathComponent().path
        let past = try ProgramRunner.run(["play", "--campaign", campaign, "--start", "9"])
        #expect(past.status == 64 && past.stderr.contains("--start 9: \(campaign) holds 8 levels"), "\(past.stderr)")
        let big = try ProgramRunner.run(["play", "--maze", "random:3", "--size", "300x9"])
        #expect(big.status != 0 && big.stderr.contains("the maze width must be 7 to 201 cells, not 300"))
    }
}

/// Whole games through the program: a level file, a recording, and the
/// outcome line `play --headless` prints, checked rule by rule.
@Suite("play --headless: the rules, end to end")
struct HeadlessRulesTests {
    /// A CSV of `seconds` at 100 Hz with the board's right edge held down (ax < 0: gravity to the right).
    func tiltRight(seconds: Int) -> String {
        "t_ns,ax,ay,az,gx,gy,gz\n" + (0 ..< seconds * 100).map { "\(1_000_000_000 + $0 * 10_000_000),-2.5,0,9.5,0,0,0" }
            .joined(separator: "\n")
    }

    func play(_ level: String, _ csv: String) throws -> ProgramRunner.Result {
        let base = temporary("rules")
        try level.write(toFile: base + ".txt", atomically: true, encoding: .utf8)
        try csv.write(toFile: base + ".csv", atomically: true, encoding: .utf8)
        defer { unlink(base + ".txt"); unlink(base + ".csv") }
        return try ProgramRunner.run(["play", "--level", base + ".txt", "--source", "replay:\(base).csv", "--headless"])
    }

    @Test("rolling right over two pellets opens the exit and wins with their score")
    func pelletsThenExit() throws {
        let r = try play("title: Pellet Lane\nexit: after pellets\nmaze:\n##############\n#S  o  o    E#\n##############\n",
                         tiltRight(seconds: 10))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("{\"won\":true,\"lost\":false,"), "\(r.stdout)")
        #expect(r.stdout.contains("\"catches\":0,\"lives\":3,\"score\":20,\"pellets_left\":0,"), "\(r.stdout)")
    }

    @Test("a ghost in the only corridor, near the start: its touch costs a life, and the grace after it lets the player through")
    func graceThrough() throws {
        let r = try play("title: Blocked\nghost: 6,1 -> 7,1 speed 0.2\nmaze:\n############\n#S        E#\n############\n",
                         tiltRight(seconds: 30))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("{\"won\":true,\"lost\":false,"), "\(r.stdout)")
        #expect(r.stdout.contains("\"catches\":1,\"lives\":2,"), "\(r.stdout)")
    }

    @Test("a ghost in the only corridor, too far to reach within the grace: it takes all three lives, game over")
    func gameOver() throws {
        let corridor = "#S" + String(repeating: " ", count: 30) + "E#"
        let wall = String(repeating: "#", count: corridor.count)
        let r = try play("title: Blocked\nghost: 26,1 -> 27,1 speed 0.2\nmaze:\n\(wall)\n\(corridor)\n\(wall)\n",
                         tiltRight(seconds: 30))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("{\"won\":false,\"lost\":true,"), "\(r.stdout)")
        #expect(r.stdout.contains("\"catches\":3,\"lives\":0,"), "\(r.stdout)")
    }

    @Test("the bundled campaign's first level is played headless when no level is named")
    func campaignDefault() throws {
        let csv = NSTemporaryDirectory() + "tiltmaze-\(getpid())-still.csv"
        try tiltRight(seconds: 1).write(toFile: csv, atomically: true, encoding: .utf8)
        defer { unlink(csv) }
        let a = try ProgramRunner.run(["play", "--source", "replay:\(csv)", "--headless"])
        let b = try ProgramRunner.run(["play", "--source", "replay:\(csv)", "--headless", "--start", "1"])
        #expect(a.status == 0 && a.stdout == b.stdout && a.stdout.contains("\"won\":false"), "\(a.stdout)\(a.stderr)")
    }
}
