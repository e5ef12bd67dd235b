// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import MockDevices

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
}

@Suite("tiltmaze with a mock Sense HAT, under umockdev-wrapper")
struct I2CCommandTestsUnderPreload {
    @Test("the mock Sense HAT command suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.I2CCommandTests/")
        #expect(run.passed, "\(run)")
    }
}
