// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MotionCore
import MotionDevices
import MockDevices
import TestSupport
import LibC
import Handoff

/// Polling an IMU whose driver made no buffer, on the sysfs tree the real
/// inv-mpu6050 driver made in the qemu tier with no interrupt line (a
/// four-wire MPU-6050: `Tests/Fixtures/kernel/iio-mpu6050.umockdev`).
/// Serialized and run only under the preload; `UnderPreload` re-runs it.
@Suite("IIO polled source on the recorded inv-mpu6050 tree", .serialized, .enabled(if: UmockdevPreload.isActive))
struct IIOPolledSourceMockTests {
    static let root = "/sys/bus/iio/devices/iio:device0/"

    func withMPU(_ body: (Testbed, IIOIMU) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(description: KernelFixtures.text("iio-mpu6050.umockdev"))
            let imus = IIOIMU.find(in: try IIOContext())
            try #require(imus.count == 1)
            try body(testbed, imus[0])
        }
    }

    func setRaw(_ testbed: Testbed, _ values: [String: Int]) throws {
        for (name, value) in values { try testbed.writeFile(Self.root + "in_\(name)_raw", "\(value)\n") }
    }

    @Test("a chip without a buffer is polled: its raw values, offset and scale applied, in SI units; a value that changes is read anew")
    func polls() throws {
        try withMPU { testbed, imu in
            try setRaw(testbed, ["accel_x": 1000, "accel_y": 0, "accel_z": 16384, "anglvel_x": 0, "anglvel_y": 0, "anglvel_z": -100])
            let source = IIOIMU.source(for: imu, rate: 100)
            #expect(source is IIOPolledMotionSource)
            #expect(source.displayName == "mpu6050 on iio:device0 (polled: no buffer)")
            try source.start()
            defer { source.stop() }
            var got: [MotionSample] = []
            #expect(eventually { source.samples.drain { got.append($0) }; return !got.isEmpty })
            let first = try #require(got.first)
            #expect(first.fields == [.acceleration, .rotationRate])
            #expect(first.acceleration == Vector3(1000 * 0.000598, 0, 16384 * 0.000598))
            #expect(first.rotationRate == Vector3(0, 0, -100 * 0.001064724))
            // The chip moves: the next reads see it.
            try setRaw(testbed, ["accel_x": -2000])
            #expect(eventually {
                source.samples.drain { got.append($0) }
                return got.last?.acceleration.x == -2000 * 0.000598
            })
            #expect(zip(got.dropFirst(), got).allSatisfy { $0.timestamp > $1.timestamp })
            #expect(source.failure == nil)
        }
    }

    @Test("the rate is set as for capture (the slowest offered at or above the one asked) and put back; the timestamp clock is left alone")
    func rate() throws {
        try withMPU { testbed, imu in
            let source = IIOPolledMotionSource(imu: imu, rate: 100)
            try source.start()
            #expect(testbed.readFile(Self.root + "sampling_frequency") == "100")
            #expect(source.rate == 100)
            source.stop()
            #expect(testbed.readFile(Self.root + "sampling_frequency") == "50")
        }
    }

    @Test("an MPU-9250 without a buffer: its magnetometer is polled at 50 Hz at most, in µT through its own mount matrix, and a reading that has not changed is not passed on again")
    func magnetometer() throws {
        var mpu = MockIIODevice.mpu9250()
        mpu.channels = mpu.channels.filter { $0.type != "timestamp" }.map { var c = $0; c.scan = nil; return c }
        mpu.buffer = nil
        mpu.trigger = nil
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            try testbed.add(mpu)
            let imus = IIOIMU.find(in: try IIOContext())
            try #require(imus.count == 1)
            for (name, value) in ["accel_z": 16384, "magn_x": 100, "magn_y": 200, "magn_z": 300] {
                try testbed.writeFile(Self.root + "in_\(name)_raw", "\(value)\n")
            }
            let source = IIOIMU.source(for: imus[0], rate: 200)
            #expect(source is IIOPolledMotionSource)
            try source.start()
            defer { source.stop() }
            #expect(source.scales?.magnetometer.map { abs($0 - 0.1508) < 1e-12 } == true)
            var got: [MotionSample] = []
            #expect(eventually { source.samples.drain { got.append($0) }; return got.count >= 12 })
            let fields = got.filter(\.hasMagneticField)
            #expect(fields.count == 1, "one reading, unchanged since: \(fields.count)")
            let field = try #require(fields.first).magneticField
            #expect(abs(field.x - 200 * 0.1523) < 1e-9 && abs(field.y - 100 * 0.1508) < 1e-9 && abs(field.z + 300 * 0.1449) < 1e-9, "\(field)")
            try testbed.writeFile(Self.root + "in_magn_x_raw", "-100\n")
            #expect(eventually {
                source.samples.drain { got.append($0) }
                return got.last(where: \.hasMagneticField).map { abs($0.magneticField.y + 100 * 0.1508) < 1e-9 } == true
            }, "no new field; the source: \(source.failure ?? "running"), dropped \(source.samples.droppedCount)")
            // Read on every fourth poll at most (200 Hz against 50): never more fields than a quarter of the samples, plus one.
            #expect(got.filter(\.hasMagneticField).count <= got.count / 4 + 1)
        }
    }

    @Test("a raw value that fails one read in 50 (EREMOTEIO): the sample is read again whole, never half; retries counted")
    func readFaultsAtARate() throws {
        try withMPU { testbed, imu in
            try setRaw(testbed, ["accel_x": 1000, "accel_y": -2000, "accel_z": 16384, "anglvel_x": 10, "anglvel_y": 20, "anglvel_z": -100])
            ReadFaults.arm(pathEnding: "iio:device0/in_accel_y_raw", errno: EREMOTEIO, every: 50)
            defer { ReadFaults.disarm() }
            let source = IIOPolledMotionSource(imu: imu, rate: 100)
            try source.start()
            defer { source.stop() }
            var got: [MotionSample] = []
            #expect(eventually { source.samples.drain { got.append($0) }; return got.count >= 300 || source.failure != nil })
            #expect(source.failure == nil, "\(source.failure ?? "")")
            #expect(got.allSatisfy { $0.acceleration == Vector3(1000 * 0.000598, -2000 * 0.000598, 16384 * 0.000598)
                                     && $0.rotationRate == Vector3(10 * 0.001064724, 20 * 0.001064724, -100 * 0.001064724) })
            #expect(ReadFaults.injected >= 5 && source.retryCount == ReadFaults.injected && source.failedSampleCount == 0,
                    "\(ReadFaults.injected) failed reads, \(source.retryCount) retries, \(source.failedSampleCount) samples lost")
        }
    }

    @Test("a raw value that fails eight reads in a row: two samples dropped (four tries each), counted; then polling goes on")
    func readFaultsInARow() throws {
        try withMPU { testbed, imu in
            try setRaw(testbed, ["accel_x": 1000, "accel_y": 0, "accel_z": 16384, "anglvel_x": 0, "anglvel_y": 0, "anglvel_z": 0])
            let source = IIOPolledMotionSource(imu: imu, rate: 100)
            try source.start()
            defer { source.stop() }
            #expect(eventually { source.samples.count > 0 })
            ReadFaults.arm(pathEnding: "iio:device0/in_accel_z_raw", errno: EIO, next: 8)
            defer { ReadFaults.disarm() }
            #expect(eventually { ReadFaults.injected == 8 })
            _ = source.samples.drain { _ in }
            var after = 0
            #expect(eventually { after += source.samples.drain { _ in }; return after >= 5 })
            #expect(source.failure == nil)
            #expect(source.failedSampleCount == 2 && source.retryCount == 6, "\(source.failedSampleCount) lost, \(source.retryCount) retries")
        }
    }

    @Test("a raw value that always fails ends the source within about a second, naming the file and the error")
    func readFaultsForGood() throws {
        try withMPU { testbed, imu in
            let source = IIOPolledMotionSource(imu: imu, rate: 100)
            try source.start()
            defer { source.stop() }
            #expect(eventually { source.samples.count > 0 })
            ReadFaults.arm(pathEnding: "iio:device0/in_anglvel_x_raw", errno: ETIMEDOUT, every: 1)
            defer { ReadFaults.disarm() }
            #expect(eventually { source.failure != nil })
            let failure = source.failure ?? ""
            #expect(failure.contains("mpu6050 on iio:device0 keeps failing") && failure.contains("iio:device0/in_anglvel_x_raw")
                    && failure.contains("Connection timed out"), "\(failure)")
        }
    }

    @Test("the device going away mid-poll ends the source, naming it")
    func gone() throws {
        try withMPU { testbed, imu in
            let source = IIOPolledMotionSource(imu: imu, rate: 100)
            try source.start()
            defer { source.stop() }
            #expect(eventually { source.samples.count > 0 })
            testbed.removeDevice(sysfsPath: "/sys/devices/i2c-0/0-0068/iio:device0")
            #expect(eventually { source.failure != nil })
            #expect(source.failure?.contains("mpu6050 on iio:device0 is gone") == true, "\(source.failure ?? "")")
        }
    }

    @Test("--source auto takes a chip without a buffer, polled, and says so")
    func auto() throws {
        try withMPU { _, _ in
            let selection = SensorSelection.examine()
            #expect(selection.imus.first?.refusal == nil)
            #expect(selection.imus.first?.isPolled == true)
            #expect(selection.autoDescription == "mpu6050 on iio:device0 (polled: no buffer)")
        }
    }
}

/// A gyroscope alone (an ADXRS290, as found beside an ADC on a real Pi's IIO
/// context) can never tilt the board: `auto` passes it over, a request by
/// name is refused with the reason, `devices` says why.
@Suite("A gyroscope-only IIO device is never the tilt source", .serialized, .enabled(if: UmockdevPreload.isActive))
struct GyroscopeOnlyMockTests {
    func withGyroscope(_ body: (Testbed) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let s16 = "le:s16/16>>0"
            try testbed.add(MockIIODevice(id: "iio:device0", name: "adxrs290", parent: "/devices/platform/soc/fe204000.spi/spi_master/spi0/spi0.0",
                                          channels: [.scanElement("anglvel", "x", index: 0, format: s16),
                                                     .scanElement("anglvel", "y", index: 1, format: s16),
                                                     .timestamp(index: 2)],
                                          attributes: ["in_anglvel_scale": "0.000087266"]))
            try body(testbed)
        }
    }

    @Test("auto passes it over for the simulated board, saying why; asked for by name it is refused with the reason")
    func refused() throws {
        try withGyroscope { _ in
            let selection = SensorSelection.examine()
            #expect(selection.imus.first?.refusal == .noAccelerometer)
            #expect(selection.choice == nil)
            #expect(selection.autoDescription.hasPrefix("simulated board (adxrs290 has no accelerometer"), "\(selection.autoDescription)")
            let imu = try #require(selection.imus.first?.imu)
            let source = IIOIMU.source(for: imu, rate: 100)
            #expect(throws: SourceError.self) { try source.start() }
            do { try source.start() } catch {
                #expect("\(error)".contains("adxrs290 (iio:device0) has no accelerometer: a gyroscope alone cannot tell which way is down"), "\(error)")
            }
        }
    }
}

@Suite("IIO polled source, under umockdev-wrapper")
struct IIOPolledSourceUnderPreload {
    @Test("the polled-source suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "MotionIIOTests.IIOPolledSourceMockTests/")
        #expect(run.passed, "\(run)")
    }

    @Test("the gyroscope-only suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func gyroscopeOnly() throws {
        let run = try UmockdevPreload.rerun(suite: "MotionIIOTests.GyroscopeOnlyMockTests/")
        #expect(run.passed, "\(run)")
    }
}
