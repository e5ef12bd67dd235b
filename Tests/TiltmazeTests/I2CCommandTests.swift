// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MockDevices
import LibC

/// `tiltmaze devices`, `doctor` and `monitor` on a mock i2c-dev bus holding
/// a Sense HAT's LSM9DS1 (`MockI2CBus`): the child process's ioctls on
/// /dev/i2c-1 are answered by this process's model of the chip.
@Suite("tiltmaze with a mock Sense HAT on i2c-dev", .serialized, .enabled(if: UmockdevPreload.isActive))
struct I2CCommandTests {
    func withSenseHat(_ body: (MockI2CBus) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let bus = MockI2CBus()
            bus.addLSM9DS1()
            try testbed.add(bus)
            try body(bus)
        }
    }

    @Test("devices and doctor find the Sense HAT's IMU on /dev/i2c-1 and auto takes it")
    func found() throws {
        try withSenseHat { _ in
            let d = try ProgramRunner.run(["devices"])
            #expect(d.status == 0, "\(d)")
            #expect(d.stdout.contains("lsm9ds1  (Sense HAT, i2c-dev, use --source i2c:/dev/i2c-1)"), "\(d.stdout)")
            #expect(d.stdout.contains("bus: /dev/i2c-1 (bcm2835 (i2c@7e804000)), addresses 0x6a + 0x1c"), "\(d.stdout)")
            #expect(d.stdout.contains("--source auto uses: lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a"), "\(d.stdout)")
            let doctor = try ProgramRunner.run(["doctor"])
            #expect(doctor.stdout.contains("OK   I2C: lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a, addresses 0x6a + 0x1c: readable"), "\(doctor.stdout)")
            #expect(doctor.stdout.contains("ready: tiltmaze play will use lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a"), "\(doctor.stdout)")
        }
    }

    /// A Pi 4's header bus holding an LSM9DS1 at 0x6a, and its first HDMI
    /// DDC bus with one too (which nothing may read), under the Pi's device
    /// tree, with or without the Sense HAT's EEPROM.
    func withPi4(hat: String?, _ body: (MockI2CBus, MockI2CBus) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let header = MockI2CBus(number: 1, name: "bcm2835 (i2c@7e804000)", parent: "/devices/platform/soc/fe804000.i2c",
                                    deviceTreeNode: "/soc/i2c@7e804000")
            let ddc = MockI2CBus(number: 20, name: "fef04500.i2c", parent: "/devices/platform/soc/fef04500.i2c",
                                 deviceTreeNode: "/soc/i2c@7ef04500")
            header.addLSM9DS1()
            ddc.addLSM9DS1()
            try testbed.add(MockDeviceTree(model: "Raspberry Pi 4 Model B Rev 1.4", hatProduct: hat,
                                           symbols: ["i2c_arm": "/soc/i2c@7e804000", "i2c1": "/soc/i2c@7e804000", "ddc0": "/soc/i2c@7ef04500"],
                                           compatible: ["/soc/i2c@7e804000": ["brcm,bcm2711-i2c", "brcm,bcm2835-i2c"],
                                                        "/soc/i2c@7ef04500": ["brcm,brcmstb-i2c"]]))
            try testbed.add(header)
            try testbed.add(ddc)
            try body(header, ddc)
        }
    }

    @Test("on a Pi with the Sense HAT's EEPROM: the header bus's LSM9DS1 is the HAT's; HDMI's DDC bus is not read, and devices says why")
    func piWithHat() throws {
        try withPi4(hat: "Sense HAT") { _, ddc in
            let d = try ProgramRunner.run(["devices"])
            #expect(d.status == 0, "\(d)")
            #expect(d.stdout.contains("lsm9ds1  (Sense HAT, i2c-dev, use --source i2c:/dev/i2c-1)"), "\(d.stdout)")
            #expect(d.stdout.contains("mount matrix: -1, 0, 0; 0, -1, 0; 0, 0, 1 (the Sense HAT's mounting)"), "\(d.stdout)")
            #expect(d.stdout.contains("I²C /dev/i2c-20 (fef04500.i2c): not looked at: not the GPIO header's bus (/soc/i2c@7ef04500, ddc0); name it to use it: --source i2c:20"), "\(d.stdout)")
            #expect(ddc.transfersAsked == 0, "a display's DDC bus was read")
            let r = try ProgramRunner.run(["monitor", "--source", "auto", "--samples", "5"])
            #expect(r.stderr.contains("reading lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a"), "\(r)")
            #expect(ddc.transfersAsked == 0, "a display's DDC bus was read")
        }
    }

    @Test("on a Pi without a HAT EEPROM, an LSM9DS1 at 0x6a is a breakout (SDO low) and keeps its own axes")
    func piWithBreakout() throws {
        try withPi4(hat: nil) { _, ddc in
            let d = try ProgramRunner.run(["devices"])
            #expect(d.stdout.contains("lsm9ds1  (LSM9DS1 breakout, i2c-dev, use --source i2c:/dev/i2c-1)"), "\(d.stdout)")
            #expect(d.stdout.contains("mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (the chip's own axes)"), "\(d.stdout)")
            #expect(ddc.transfersAsked == 0, "a display's DDC bus was read")
        }
    }

    @Test("monitor reads it at the chip's rate and says what the bus costs: samples missed and transfers per sample")
    func monitor() throws {
        try withSenseHat { bus in
            let r = try ProgramRunner.run(["monitor", "--source", "i2c:1", "--sensor-rate", "100", "--samples", "150"])
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.contains("reading lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a"), "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.contains { $0.contains("   missed ") && $0.contains("   transfers/sample ") }, "\(r.stdout)")
            #expect(bus.samplesMade() >= 150)
            #expect(bus.register(0x6a, 0x10) == 0, "the chip is left powered down, as it was")
        }
    }

    @Test("a bus that drops 5 % of its transfers: monitor goes on and counts the retries; doctor's live line warns of it")
    func glitchingBus() throws {
        try withSenseHat { bus in
            bus.failTransfers(rate: 0.05, errno: EAGAIN)
            let r = try ProgramRunner.run(["monitor", "--source", "i2c:1", "--sensor-rate", "100", "--samples", "300"])
            #expect(r.status == 0, "\(r)")
            let last = try #require(r.stdout.split(separator: "\n").last.map(String.init), "\(r)")
            #expect(last.contains("   retried "), "\(r.stdout)")
            let doctor = try ProgramRunner.run(["doctor"])
            let live = try #require(doctor.stdout.split(separator: "\n").last.map(String.init), "\(doctor)")
            #expect(live.hasPrefix("WARN live: lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a: ") && live.contains("reads retried"), "\(doctor.stdout)")
            #expect(bus.injectedFailures > 0)
        }
    }

    @Test("calibrate --compass: turned through every direction, the screen fills, the accuracy rises to high, and Save keeps the hard iron")
    func compass() throws {
        try withSenseHat { bus in
            // 20 µT of hard iron in chip axes; the Sense HAT's magnetometer reads the board's y the other way.
            let offset = SIMD3<Double>(12, -9, 11) * (1 / 0.014)
            bus.turnMagnetometer(offset: offset)
            let pane = try TmuxPane.seeingMockDevices(columns: 100, rows: 32)
            try pane.runTiltmaze("calibrate --compass --source i2c:1")
            _ = try pane.waitFor { $0.contains("lsm9ds1") && $0.contains("Accuracy") }
            // The bound is generous, for a loaded machine: the turn covers the sphere in about 20 s.
            let high = try pane.waitFor(timeout: 150) { $0.contains("Accuracy high") }
            #expect(!high.contains("no magnetometer"), "\(high)")
            try pane.send("s")
            let after = try pane.waitFor { TmuxPane.showsExit($0) }
            #expect(after.contains("tiltmaze-exit=0"), "\(after)")
            #expect(after.contains("Compass: high accuracy"), "\(after)")
            let directory = pane.home + "/.config/tiltmaze/calibration"
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            let text = try String(contentsOfFile: directory + "/" + #require(files.first), encoding: .utf8)
            let kept = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let magnetometer = try #require(kept["magnetometer"] as? [String: Any], "\(text)")
            let stored = try #require(magnetometer["offset_ut"] as? [Double], "\(text)")
            // The board frame is the chip's with y turned about.
            let expected = [12.0, 9, 11]
            #expect(zip(stored, expected).allSatisfy { abs($0 - $1) < 0.5 }, "kept \(stored), expected \(expected)")
            #expect(magnetometer["accuracy"] as? String == "high")
        }
    }

    @Test("play learns the hard iron while the board turns, and keeps it for the next run")
    func refinedWhilePlaying() throws {
        try withSenseHat { bus in
            bus.turnMagnetometer(offset: SIMD3<Double>(-7, 15, 4) * (1 / 0.014))
            let pane = try TmuxPane.seeingMockDevices(columns: 80, rows: 24)
            try pane.runTiltmaze("play --source i2c:1 --level \(ProgramRunner.firstRoll)")
            _ = try pane.waitFor { $0.contains("lsm9ds1") }
            // Two of the tracker's 10 s windows of turning, as the game has read them (1,600 readings at
            // 80 Hz; longer under emulation, where the game reads less often). The bound only catches a hang.
            let deadline = Date().addingTimeInterval(400)
            while bus.magnetometerReadingsRead() < 1_600 && Date() < deadline { usleep(200_000) }
            try pane.send("q")
            let after = try pane.waitFor { TmuxPane.showsExit($0) }
            #expect(after.contains("tiltmaze-exit=0"), "\(after)")
            let directory = pane.home + "/.config/tiltmaze/calibration"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            let text = try String(contentsOfFile: directory + "/" + #require(files.first, "nothing saved"), encoding: .utf8)
            let kept = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let magnetometer = try #require(kept["magnetometer"] as? [String: Any], "\(text)")
            let stored = try #require(magnetometer["offset_ut"] as? [Double], "\(text)")
            let expected = [-7.0, -15, 4]
            #expect(zip(stored, expected).allSatisfy { abs($0 - $1) < 0.5 }, "kept \(stored), expected \(expected)")
            #expect(["medium", "high"].contains(magnetometer["accuracy"] as? String), "\(text)")
        }
    }
}

@Suite("tiltmaze with a mock Sense HAT, under umockdev-wrapper")
struct I2CCommandTestsUnderPreload {
    @Test("the mock Sense HAT command suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        // The compass calibration turns the board for about 20 s of the clock, however loaded the machine.
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.I2CCommandTests/", timeout: .seconds(900))
        #expect(run.passed, "\(run)")
    }
}
