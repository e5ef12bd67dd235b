// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MockDevices
import Testing

/// The program against the sysfs trees the real IIO drivers made in the qemu
/// tier (inv-mpu6050, bmi160, st_lsm6dsx on i2c-stub, no interrupt lines;
/// `Tests/Fixtures/kernel/iio-*.umockdev`, recorded by
/// `scripts/qemu/scenarios/iio`): their own attribute names, number formats,
/// rate lists and mount-matrix files, not our reading of the drivers.
@Suite("tiltmaze on the real IIO drivers' recorded sysfs trees", .serialized, .enabled(if: UmockdevPreload.isActive))
struct KernelFixtureIIOTests {
    static func fixture(_ chip: String) throws -> String { try KernelFixtures.text("iio-\(chip).umockdev") }

    @Test("devices describes each chip with the driver's rates and mount matrix; one IMU for the LSM6 halves; a chip without an interrupt line has no buffer and is polled", arguments: [
        ("mpu6050", ["iio:device0 mpu6050  (no buffer)", "channels: accel_x accel_y accel_z anglvel_x anglvel_y anglvel_z (single raw reads only)",
                     "rates: 10 20 50 100 200 500 Hz (now 50)", "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (in_accel_mount_matrix)",
                     "capture: polled, no buffer", "--source auto uses: mpu6050 on iio:device0 (polled: no buffer)"]),
        ("bmi160", ["iio:device1 bmi160  /dev/iio:device1", "channels: anglvel_x anglvel_y anglvel_z accel_x accel_y accel_z timestamp",
                    "rates: accel 0.78125 1.5625 3.125 6.25 12.5 25 50 100 200 400 800 1600 Hz (now 100)",
                    "rates: anglvel 25 50 100 200 400 800 1600 3200 Hz (now 100)",
                    "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (in_mount_matrix)", "trigger: none to be had",
                    "--source auto uses: simulated board (bmi160 has no trigger"]),
        ("lsm6ds3", ["lsm6ds3  (IIO, use --source iio:lsm6ds3)", "iio:device3 lsm6ds3_accel  (no buffer)", "iio:device2 lsm6ds3_gyro  (no buffer)",
                     "scales: accel 0.000598205 m/s² per count", "rates: 12.5 26 52 104 208 416 Hz (now 12.5)",
                     "mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1 (mount_matrix)"]),
        ("lsm6dso", ["lsm6dso  (IIO, use --source iio:lsm6dso)", "rates: 12.5 26 52 104 208 416 833 Hz (now 12.5)"]),
    ])
    func devices(chip: String, lines: [String]) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: Self.fixture(chip))
            let r = try ProgramRunner.run(["devices"])
            #expect(r.status == 0, "\(r.stderr)")
            for line in lines { #expect(r.stdout.contains(line), "\(line)\n\(r.stdout)") }
            #expect(r.stdout.components(separatedBy: "(IIO, use").count == 2, "one IMU: \(r.stdout)")
        }
    }

    @Test("doctor: a split chip without an interrupt line is polled, said once with the fix; monitor reads it, accelerometer and gyroscope from their own halves")
    func noBuffer() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: Self.fixture("lsm6ds3"))
            try testbed.writeFile("/sys/bus/iio/devices/iio:device3/in_accel_z_raw", "16384\n")
            try testbed.writeFile("/sys/bus/iio/devices/iio:device2/in_anglvel_x_raw", "-200\n")
            let d = try ProgramRunner.run(["doctor"])
            #expect(d.status == 0, "\(d.stdout)")
            #expect(d.stdout.contains("WARN capture: iio:device3 (lsm6ds3_accel) and iio:device2 (lsm6ds3_gyro) have no buffer, so it is polled: each axis read in turn"), "\(d.stdout)")
            #expect(d.stdout.components(separatedBy: "capture:").count == 2, "said once: \(d.stdout)")
            #expect(d.stdout.contains("OK   IIO: lsm6ds3 on iio:device3 + iio:device2 (accel, anglvel)"), "\(d.stdout)")
            #expect(d.stdout.contains("ready: tiltmaze play will use lsm6ds3 on iio:device3 + iio:device2 (polled: no buffer)"), "\(d.stdout)")
            let m = try ProgramRunner.run(["monitor", "--source", "iio:lsm6ds3", "--json", "--samples", "1"])
            #expect(m.status == 0, "\(m.stderr)")
            #expect(m.stdout.contains("\"accel\":[0.0,0.0,\(16384 * 0.000598205)],\"gyro\":[\(-200 * 0.000152716),0.0,0.0]"), "\(m.stdout)")
        }
    }

    @Test("bmi160 with its data-ready trigger (as with an interrupt line): monitor captures its own scan layout, sets and restores its per-type rates")
    func bmi160Capture() throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: Self.fixture("bmi160"))
            // What the driver adds when the chip's INT1 is declared: its data-ready trigger.
            try testbed.add(MockIIOTrigger(id: "trigger0", name: "bmi160-dev1", parent: "/devices/i2c-0/0-0069"))
            var bytes: [UInt8] = []
            for (i, raw) in [Int16(1000), Int16(-1000)].enumerated() {
                var s = ScanBytes()
                // Scan order by index: anglvel x, y, z (4-6), accel x, y, z (7-9), little-endian; then the timestamp (10).
                s.le16(0); s.le16(0); s.le16(raw)
                s.le16(raw); s.le16(0); s.le16(16384)
                s.pad(to: 8)
                s.le64(2_000_000_000 + Int64(i) * 5_000_000)
                bytes += s.bytes
            }
            let (status, stdout, stderr) = try runWhileWriting(["monitor", "--source", "iio:bmi160", "--json", "--samples", "2"],
                                                               scans: bytes, to: testbed, device: "iio:device1")
            #expect(status == 0, "\(stderr)")
            let device = "\"device\":\"bmi160 on iio:device1\""
            #expect(stdout.split(separator: "\n").map(rawPart) == [
                "{\"t_ns\":2000000000,\"accel\":[\(1000 * 0.000598),0.0,\(16384 * 0.000598)],\"gyro\":[0.0,0.0,\(1000 * 0.001065)],\(device)}",
                "{\"t_ns\":2005000000,\"accel\":[\(-1000 * 0.000598),0.0,\(16384 * 0.000598)],\"gyro\":[0.0,0.0,\(-1000 * 0.001065)],\(device)}",
            ], "\(stdout)")
            let root = "/sys/bus/iio/devices/iio:device1/"
            #expect(testbed.readFile(root + "in_accel_sampling_frequency") == "100.000000", "put back as the driver wrote it")
            #expect(testbed.readFile(root + "in_anglvel_sampling_frequency") == "100.000000")
            #expect(testbed.readFile(root + "trigger/current_trigger") == "")
            #expect(testbed.readFile(root + "buffer/enable") == "0")
        }
    }
}

@Suite("tiltmaze on the recorded IIO drivers, under umockdev-wrapper")
struct KernelFixtureIIOTestsUnderPreload {
    @Test("the recorded-driver suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "TiltmazeTests.KernelFixtureIIOTests/")
        #expect(run.passed, "\(run)")
    }
}
