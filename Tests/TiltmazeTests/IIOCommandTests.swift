// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import TestSupport
import Foundation
import MockDevices

/// `tiltmaze devices` and `monitor` against a umockdev testbed: the child
/// process inherits the preload and `UMOCKDEV_DIR`, so the real program sees
/// the fake IIO devices this test made.
@Suite("tiltmaze with mock IIO devices", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIOCommandTests {
    @Test("devices lists an MPU-6050 with its channels, scales, rates, trigger and access")
    func devicesListsIMU() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let r = try ProgramRunner.run(["devices"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("mpu6050  (IIO, use --source iio:mpu6050)"))
            #expect(r.stdout.contains("channels: accel_x accel_y accel_z temp anglvel_x anglvel_y anglvel_z timestamp"))
            #expect(r.stdout.contains("accel 0.000598 m/s² per count"))
            #expect(r.stdout.contains("rates: 10 20 50 100 200 500 Hz (now 50)"))
            #expect(r.stdout.contains("IIO triggers: mpu6050-dev0"))
            #expect(r.stdout.contains("hrtimer triggers: not available (configfs is not mounted: sudo mount -t configfs none /sys/kernel/config; see hardware.md)"), "\(r.stdout)")
            #expect(r.stdout.contains("access: ok"))
        }
    }

    @Test("devices shows a BNO055's magnetometer and its own fusion")
    func chipFusion() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.bno055())
            let r = try ProgramRunner.run(["devices"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("magnetometer: magn_x magn_y magn_z, 0.0625 µT per count, read with the others"), "\(r.stdout)")
            #expect(r.stdout.contains("fusion: the chip's own (gravity), on: --chip-fusion tilts by its gravity"), "\(r.stdout)")
        }
    }

    @Test("--chip-fusion is refused, saying why, for a sensor without a fusion of its own")
    func chipFusionRefused() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let r = try ProgramRunner.run(["monitor", "--source", "iio:mpu6050", "--chip-fusion", "--samples", "1"])
            #expect(r.status == 69)
            #expect(r.stderr.contains("--chip-fusion: mpu6050 on iio:device0 has no fusion of its own (a BNO055 has)"), "\(r.stderr)")
        }
    }

    @Test("devices with nothing attached says so and where to look")
    func devicesNone() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let r = try ProgramRunner.run(["devices"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("No motion sensors found"))
        }
    }

    @Test("monitor --source iio --json prints the scans written to the device in SI units, then restores it")
    func monitorJSON() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            var bytes: [UInt8] = []
            for (i, raw) in [Int16(1000), Int16(-1000)].enumerated() {
                var s = ScanBytes()
                s.be16(raw); s.be16(0); s.be16(16384); s.be16(0); s.be16(0); s.be16(raw)
                s.pad(to: 8)
                s.le64(1_000_000_000 + Int64(i))
                bytes += s.bytes
            }
            let (status, stdout, stderr) = try runWhileWriting(["monitor", "--source", "iio:mpu6050", "--json", "--samples", "2"],
                                                               scans: bytes, to: testbed)
            #expect(status == 0, "\(stderr)")
            let lines = stdout.split(separator: "\n").map(rawPart)
            #expect(lines == [
                "{\"t_ns\":1000000000,\"accel\":[\(1000 * 0.000598),0.0,\(16384 * 0.000598)],\"gyro\":[0.0,0.0,\(1000 * 0.000133090)],\"device\":\"mpu6050 on iio:device0\"}",
                "{\"t_ns\":1000000001,\"accel\":[\(-1000 * 0.000598),0.0,\(16384 * 0.000598)],\"gyro\":[0.0,0.0,\(-1000 * 0.000133090)],\"device\":\"mpu6050 on iio:device0\"}",
            ])
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "0")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/sampling_frequency") == "50")
            #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/trigger/current_trigger") == "")
        }
    }
}

/// `--iio-uri`: the same commands reading a real iiod that serves the testbed on localhost.
@Suite("tiltmaze --iio-uri through a real iiod", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIONetworkCommandTests {
    @Test("devices --iio-uri lists the remote MPU-6050 and names the URI as where --source auto reads")
    func devices() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let iiod = try IIODaemon()
            let r = try withExtendedLifetime(iiod) { try ProgramRunner.run(["devices", "--iio-uri", iiod.uri]) }
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("mpu6050  (IIO, use --source iio:mpu6050)"), "\(r.stdout)")
            #expect(r.stdout.contains("rates: 10 20 50 100 200 500 Hz (now 50)"))
            #expect(r.stdout.contains("--source auto uses: mpu6050 on iio:device0 at \(iiod.uri)"), "\(r.stdout)")
        }
    }

    @Test("monitor --iio-uri --json prints the scans written on the far side, in SI units")
    func monitor() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(MockIIODevice.mpu6050())
            let iiod = try IIODaemon()
            try withExtendedLifetime(iiod) {
                var bytes: [UInt8] = []
                for i in 0..<4 {
                    var s = ScanBytes()
                    s.be16(Int16(100 * (i + 1))); s.be16(0); s.be16(16384); s.be16(0); s.be16(0); s.be16(0)
                    s.pad(to: 8)
                    s.le64(2_000_000_000 + Int64(i) * 5_000_000)
                    bytes += s.bytes
                }
                let (status, stdout, stderr) = try runWhileWriting(
                    ["monitor", "--iio-uri", iiod.uri, "--json", "--samples", "4", "--sensor-rate", "200"], scans: bytes, to: testbed)
                #expect(status == 0, "\(stderr)")
                let times = stdout.split(separator: "\n").map { line in line.split(separator: ",")[0] }
                #expect(times == (0..<4).map { "{\"t_ns\":\(2_000_000_000 + $0 * 5_000_000)" }, "\(stdout)")
                #expect(stdout.contains("\"device\":\"mpu6050 on iio:device0 at \(iiod.uri)\""))
                #expect(testbed.readFile("/sys/bus/iio/devices/iio:device0/buffer/enable") == "0")
            }
        }
    }

    @Test("an iiod that is not there: one line naming the URI and what to check, exit status 69")
    func unreachable() throws {
        let r = try ProgramRunner.run(["devices", "--iio-uri", "ip:127.0.0.1:1"])
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("tiltmaze: cannot reach iiod at ip:127.0.0.1:1: "), "\(r.stderr)")
        #expect(r.stderr.contains("is iiod running there"))
        let play = try ProgramRunner.run(["monitor", "--iio-uri", "ip:127.0.0.1:1", "--samples", "1"])
        #expect(play.status == 69 && play.stderr.contains("cannot reach iiod at ip:127.0.0.1:1"), "\(play.stderr)")
        let sim = try ProgramRunner.run(["monitor", "--iio-uri", "ip:127.0.0.1:1", "--source", "sim", "--samples", "1"])
        #expect(sim.status == 64 && sim.stderr.contains("--iio-uri is for IIO sensors"))
    }
}

@Suite("tiltmaze --iio-uri through a real iiod, under umockdev-wrapper")
struct IIONetworkCommandTestsUnderPreload {
    @Test("the iiod command suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.IIONetworkCommandTests/")
        #expect(run.passed, "\(run)")
    }
}

@Suite("tiltmaze with mock IIO devices, under umockdev-wrapper")
struct IIOCommandTestsUnderPreload {
    @Test("the mock command suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.IIOCommandTests/")
        #expect(run.passed, "\(run)")
    }
}

/// The game itself on a mock IIO IMU, in tmux: the shell gets the preload and
/// this testbed's directory, so the game reads the fake MPU-6050.
@Suite("tiltmaze play on a mock IIO IMU", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIOPlayTests {
    /// An MPU-6050 scan (temp disabled) reading a board whose right edge is
    /// lowered by about 25°: specific force -x, +z.
    /// Counts of the mock's accelerometer (0.000598 m/s² each) for `ms2`.
    func counts(_ ms2: Double) -> Int16 { Int16((ms2 / 0.000598).rounded()) }

    /// Sets the accelerometer's `in_accel_*_raw`, which a polled capture reads.
    func holdRaw(x: Int16, z: Int16, on testbed: Testbed) throws {
        let device = "/sys/bus/iio/devices/iio:device0/"
        try testbed.writeFile(device + "in_accel_x_raw", "\(x)\n")
        try testbed.writeFile(device + "in_accel_y_raw", "0\n")
        try testbed.writeFile(device + "in_accel_z_raw", "\(z)\n")
    }

    func tiltedRight(_ t: Int64) -> [UInt8] {
        var s = ScanBytes()
        s.be16(counts(-4.14)); s.be16(0); s.be16(counts(8.89))
        s.be16(0); s.be16(0); s.be16(0)
        s.pad(to: 8)
        s.le64(t)
        return s.bytes
    }

    /// The same board lying level.
    func level(_ t: Int64) -> [UInt8] {
        var s = ScanBytes()
        s.be16(0); s.be16(0); s.be16(counts(9.80665))
        s.be16(0); s.be16(0); s.be16(0)
        s.pad(to: 8)
        s.le64(t)
        return s.bytes
    }

    @Test("tilting the IMU rolls the ball; unplugging it ends the game with a message, exit status 74 and the terminal restored")
    func playsAndSurvivesUnplug() throws {
        let mpu = MockIIODevice.mpu6050()
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(mpu)
            // The board as its raw values say too: a machine slow enough to leave the trigger
            // silent for a second (emulated arm64 under load) polls them instead of capturing,
            // and stops reading the node, so scans are only offered, never waited on.
            try holdRaw(x: 0, z: counts(9.80665), on: testbed)
            let pane = try TmuxPane.seeingMockDevices(columns: 80, rows: 24)
            try pane.runTiltmaze("play --source iio --level \(ProgramRunner.firstRoll)")
            // A real IMU sends scans from the moment its trigger is set: the board lies level while
            // the game starts, however long that takes.
            var t: Int64 = 1_000_000_000
            _ = try pane.waitFor { screen in
                _ = try? testbed.offerScans((0..<4).map { _ in defer { t += 5_000_000 }; return level(t) }, to: "/dev/iio:device0")
                return screen.contains("sensor: mpu6050 on iio:device0")
            }
            let start = try #require(try pane.ballPosition())

            // Stops as soon as the ball has moved; the bound only catches a hang.
            try holdRaw(x: counts(-4.14), z: counts(8.89), on: testbed)
            let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
            var moved = start
            while Date() < deadline {
                _ = try testbed.offerScans((0..<20).map { _ in defer { t += 5_000_000 }; return tiltedRight(t) }, to: "/dev/iio:device0")
                usleep(100_000)
                if let p = try pane.ballPosition() { moved = p }
                if moved.column > start.column + 8 { break }
            }
            #expect(moved.column > start.column + 8, "ball went from \(start) to \(moved)")

            testbed.removeDevice(sysfsPath: mpu.sysfsDevicePath)
            let after = try pane.waitFor(timeout: 10) { TmuxPane.showsExit($0) }
            #expect(after.contains("tiltmaze-exit=74"))
            #expect(after.contains("iio:device0"))
            #expect(try pane.variable("alternate_on") == "0")
        }
    }
}

@Suite("tiltmaze play on a mock IIO IMU, under umockdev-wrapper")
struct IIOPlayTestsUnderPreload {
    @Test("the mock play suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.IIOPlayTests/")
        #expect(run.passed, "\(run)")
    }
}

/// Runs `tiltmaze ARGS…` (no terminal), waits until it has enabled the mock
/// device's buffer (the MPU-6050's, iio:device0, unless named), writes
/// `scans` into its node, and waits for it to end (20 s, a hang); returns its
/// status and output.
func runWhileWriting(_ arguments: [String], scans: [UInt8], to testbed: Testbed,
                     device: String = "iio:device0", command: [String] = [ProgramRunner.binary]) throws -> (Int32, String, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: command[0])
    p.arguments = Array(command.dropFirst()) + arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let enable = "/sys/bus/iio/devices/\(device)/buffer/enable"
    let deadline = Date().addingTimeInterval(Emulation.hangBound(60))
    // Read once a round and kept: while the program sets its capture up,
    // `enable` can read "1" and then, for a moment, not (a second look
    // found it so under arm64 emulation, one run in eight, and the test
    // stopped the program). Scans written then wait in the node for the
    // program all the same.
    var enabled = testbed.readFile(enable) == "1"
    while !enabled && Date() < deadline && p.isRunning {
        usleep(10_000)
        enabled = testbed.readFile(enable) == "1"
    }
    if !enabled {
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(Bool(false), "\(arguments.joined(separator: " ")) never enabled the buffer; it ended with status \(p.terminationStatus), printing \(printed), saying: \(said)")
    }
    try testbed.writeScans(scans, to: "/dev/\(device)")
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning { p.terminate() }
    p.waitUntilExit()
    return (p.terminationStatus,
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}
