// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import I2C
import MotionCore
import MotionDevices
import MockDevices
import TestSupport
import LibC
import Handoff

/// The i2c-dev path (I2CDevice, I2CProbe, I2CMotionSource) on a mock bus
/// whose LSM9DS1 makes samples at the rate its control register sets and
/// clears its status bits as the chip does. Serialized and run only under
/// the preload; `UnderPreload` below re-runs it.
@Suite("i2c-dev source on a mock bus", .serialized, .enabled(if: UmockdevPreload.isActive))
struct I2CSourceMockTests {
    func withBus(_ prepare: (MockI2CBus) -> Void = { $0.addLSM9DS1() }, _ body: (Testbed, MockI2CBus) throws -> Void) throws {
        let testbed = Testbed()
        try withExtendedLifetime(testbed) {
            let bus = MockI2CBus()
            prepare(bus)
            try testbed.add(bus)
            try body(testbed, bus)
        }
    }

    @Test("the probe finds the Sense HAT's LSM9DS1 and its magnetometer by WHO_AM_I, and names what else answered")
    func probe() throws {
        try withBus({ $0.addLSM9DS1(); $0.addChip(0x6b, registers: [0x0f: 0x69]) }) { _, _ in
            let probes = I2CProbe.probeAll().probes
            try #require(probes.count == 1)
            #expect(probes[0].adapter == I2CAdapter(number: 1, name: "bcm2835 (i2c@7e804000)"))
            #expect(probes[0].imus == [I2CIMU(adapter: probes[0].adapter, address: 0x6a, magnetometerAddress: 0x1c)])
            #expect(probes[0].answered == ["0x6a: LSM9DS1 accelerometer and gyroscope",
                                           "0x6b: not an LSM9DS1 (WHO_AM_I 0x69, expected 0x68)",
                                           "0x1c: LSM9DS1 magnetometer"])
            #expect(SensorSelection.examine().choice?.description == "lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a")
        }
    }

    @Test("every sample the chip makes is read once, in order, converted into the board's frame; the rate is set and the registers put back")
    func reads() throws {
        try withBus { _, bus in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: 0x1c)
            let source = I2CMotionSource(imu: imu, rate: 200)
            try source.start()
            #expect(source.rate == 238)
            #expect(bus.register(0x6a, 0x10) == 0x88 && bus.register(0x6a, 0x20) == 0x98 && bus.register(0x6a, 0x22) == 0x44)
            var got: [MotionSample] = []
            #expect(eventually { source.samples.drain { got.append($0) }; return got.count >= 60 })
            source.stop()
            #expect(source.failure == nil)
            // Serial numbers ride in the chip's accelerometer x, which the HAT's mounting turns to -x.
            let serials = got.map { Int((-$0.acceleration.x / LSM9DS1.accelScale).rounded()) }
            let steps = zip(serials.dropFirst(), serials).map { $0 - $1 }
            #expect(steps.allSatisfy { $0 >= 1 }, "a sample read twice: \(serials)")
            // Skips happen only when the thread is held up; what is counted never exceeds them.
            #expect(source.missedCount <= steps.reduce(0) { $0 + $1 - 1 })
            #expect(zip(got.dropFirst(), got).allSatisfy { $0.timestamp > $1.timestamp })
            #expect(abs(got[0].acceleration.z - 4098 * LSM9DS1.accelScale) < 1e-12)
            #expect(abs(got[0].rotationRate.x + 1000 * LSM9DS1.gyroScale) < 1e-12)
            // Two status looks and two block reads a sample, on time; a loaded machine looks more often, never less.
            #expect(source.transferCount >= 3 * got.count)
            // The chip's registers as they were before start.
            #expect(bus.register(0x6a, 0x10) == 0 && bus.register(0x6a, 0x20) == 0 && bus.register(0x6a, 0x22) == 0x04)
        }
    }

    @Test("the magnetometer runs at 80 Hz beside them: each reading rides once on a sample, in µT in the board's frame, and it is powered down again")
    func magnetometer() throws {
        try withBus { _, bus in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: 0x1c)
            let source = I2CMotionSource(imu: imu, rate: 200)
            try source.start()
            #expect(source.magnetometerRate == 80)
            #expect(source.scales?.magnetometer == LSM9DS1.magnetometerScale)
            // Ultra-high performance at 80 Hz, ±4 gauss, block data update, continuous conversion.
            #expect(bus.register(0x1c, 0x20) == 0x7c && bus.register(0x1c, 0x21) == 0 && bus.register(0x1c, 0x22) == 0)
            #expect(bus.register(0x1c, 0x23) == 0x0c && bus.register(0x1c, 0x24) == 0x40)
            var got: [MotionSample] = []
            #expect(eventually { source.samples.drain { got.append($0) }; return got.filter(\.hasMagneticField).count >= 20 })
            source.stop()
            #expect(source.failure == nil)
            let fields = got.filter(\.hasMagneticField).map(\.magneticField)
            // The chip's (serial, 1000, -2000): its x reversed against the
            // accelerometer's, then the HAT's half turn about z.
            let scale = LSM9DS1.magnetometerScale
            let serials = fields.map { Int(($0.x / scale).rounded()) }
            #expect(zip(serials.dropFirst(), serials).allSatisfy { $0 > $1 }, "a reading read twice: \(serials)")
            #expect(fields.allSatisfy { abs($0.y + 1000 * scale) < 1e-9 && abs($0.z + 2000 * scale) < 1e-9 }, "\(fields.prefix(3))")
            // Never more readings than the chip made: none read twice (a
            // loaded machine, or an emulated one, may find one on every sample).
            #expect(fields.count <= bus.samplesMade(0x1c))
            #expect(bus.register(0x1c, 0x22) == 0x03 && bus.register(0x1c, 0x20) == 0 && bus.register(0x1c, 0x24) == 0)
        }
    }

    @Test("the board coming off mid-game ends the source, naming the chip and saying nothing answers")
    func unplugged() throws {
        try withBus { _, bus in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil)
            let source = I2CMotionSource(imu: imu, rate: 100)
            try source.start()
            defer { source.stop() }
            #expect(eventually { source.samples.count > 0 })
            bus.unplug()
            #expect(eventually { source.failure != nil })
            let failure = source.failure ?? ""
            #expect(failure.contains("lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a is gone"), "\(failure)")
            #expect(failure.contains("/dev/i2c-1 address 0x6a") && failure.contains("no chip answers at this address"), "\(failure)")
        }
    }

    /// The chip's serial numbers in a sample: its accelerometer x (turned to -x
    /// by the HAT's mounting) and its gyroscope z (kept), which must agree.
    func serials(_ sample: MotionSample) -> (accel: Int, gyro: Int) {
        (Int((-sample.acceleration.x / LSM9DS1.accelScale).rounded()), Int((sample.rotationRate.z / LSM9DS1.gyroScale).rounded()))
    }

    /// Samples the glitching bus is read for: 10,000 natively (42 s of the
    /// chip's); emulated, where the preloaded bus costs some 50 ms a sample
    /// beside the other tiers (566 s for 10,000 once), a fifth of that,
    /// which still meets some 60 failed transfers.
    static let glitchingSamples = Emulation.isQemuUser ? 2_000 : 10_000

    @Test("1 % of transfers failing over thousands of samples at 238 Hz: retried, counted, and every sample pushed is one the chip held, whole")
    func glitchingBus() throws {
        try withBus({ $0.addLSM9DS1(magnetometer: nil, serialInGyroscope: true) }) { _, bus in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil)
            let source = I2CMotionSource(imu: imu, rate: 238)
            try source.start()
            defer { source.stop() }
            #expect(source.rate == 238)
            bus.failTransfers(rate: 0.01, errno: EAGAIN)
            var got: [MotionSample] = []
            let wanted = Self.glitchingSamples
            got.reserveCapacity(wanted + 100)
            #expect(eventually(within: 600) { source.samples.drain { got.append($0) }; return got.count >= wanted || source.failure != nil })
            #expect(source.failure == nil, "\(source.failure ?? "")")
            let numbers = got.map(serials)
            // A retry starts again from the status look, so it never joins two moments; only a reader held
            // up between the gyroscope's and the accelerometer's transfers can (the chip counts those).
            let joined = numbers.filter { $0.accel != $0.gyro }.count
            #expect(joined <= bus.straddles(), "\(joined) samples put together from reads of two moments, \(bus.straddles()) explained by a held-up reader")
            // Serials are the chip's 16-bit counts: a slow (emulated) reader sees them wrap past 32767.
            #expect(zip(numbers.dropFirst(), numbers).allSatisfy { (1 ..< 32768).contains(Int(UInt16(truncatingIfNeeded: $0.accel - $1.accel))) },
                    "a sample pushed twice, or out of order")
            #expect(got.allSatisfy { abs($0.acceleration.z - 4098 * LSM9DS1.accelScale) < 1e-12 && abs($0.rotationRate.x + 1000 * LSM9DS1.gyroScale) < 1e-12 },
                    "a value the chip did not hold (a failed read's bytes)")
            // Every failure was retried; a sample is lost only when four tries in a row fail (about 1 in a million).
            #expect(bus.injectedFailures >= wanted / 100 && source.retryCount >= bus.injectedFailures - 4 * source.failedSampleCount)
            #expect(source.failedSampleCount <= 5)
        }
    }

    /// The HAT's chip (no magnetometer) read at `rate`, once its first sample is in.
    func readingHAT(rate: Double) throws -> I2CMotionSource {
        let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil)
        let source = I2CMotionSource(imu: imu, rate: rate)
        try source.start()
        #expect(eventually { source.samples.count > 0 })
        return source
    }

    @Test("a burst of failed transfers costs a few samples, counted; then reading goes on")
    func burst() throws {
        try withBus({ $0.addLSM9DS1(magnetometer: nil) }) { _, bus in
            let source = try readingHAT(rate: 119)
            defer { source.stop() }
            bus.failNextTransfers(20, errno: EREMOTEIO)
            #expect(eventually { bus.injectedFailures == 20 })
            var after = 0
            _ = source.samples.drain { _ in }
            #expect(eventually { after += source.samples.drain { _ in }; return after >= 10 })
            #expect(source.failure == nil)
            // Four tries a sample: 20 failures in a row drop five samples and retry fifteen times.
            #expect(source.failedSampleCount == 5 && source.retryCount == 15, "\(source.failedSampleCount) dropped, \(source.retryCount) retries")
        }
    }

    @Test("a bus that keeps failing ends the source within about a second, naming the bus, the address and the error")
    func keepsFailing() throws {
        try withBus({ $0.addLSM9DS1(magnetometer: nil) }) { _, bus in
            let source = try readingHAT(rate: 119)
            defer { source.stop() }
            bus.failTransfers(rate: 1, errno: EIO)
            #expect(eventually { source.failure != nil })
            let failure = source.failure ?? ""
            #expect(failure.contains("lsm9ds1 (Sense HAT) on /dev/i2c-1 at 0x6a keeps failing") && failure.contains("/dev/i2c-1 address 0x6a")
                    && failure.contains("Input/output error"), "\(failure)")
            #expect(source.failedSampleCount >= 1)
        }
    }

    @Test("a start that fails half way through its register writes puts back the ones it made")
    func failedStartUndone() throws {
        try withBus({ $0.addLSM9DS1(); $0.refuseWrites(to: 0x20) }) { _, bus in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil)
            let source = I2CMotionSource(imu: imu, rate: 100)
            #expect(throws: SourceError.self) { try source.start() }
            // CTRL_REG8, CTRL_REG4 and CTRL_REG5_XL were written before CTRL_REG6_XL failed: as they were again.
            #expect(bus.register(0x6a, 0x22) == 0x04 && bus.register(0x6a, 0x1e) == 0x38 && bus.register(0x6a, 0x1f) == 0x38)
            #expect(bus.register(0x6a, 0x10) == 0)
        }
    }

    @Test("a chip a kernel driver holds is left alone: the probe lists it as held, and start refuses with the reason")
    func claimed() throws {
        try withBus({ $0.addLSM9DS1(); $0.claim(0x6a) }) { _, _ in
            let imu = I2CIMU(adapter: I2CAdapter(number: 1, name: "bcm2835"), address: 0x6a, magnetometerAddress: nil)
            let source = I2CMotionSource(imu: imu, rate: 100)
            #expect(throws: SourceError.self) { try source.start() }
            do { try source.start() } catch {
                #expect("\(error)".contains("/dev/i2c-1 address 0x6a") && "\(error)".contains("a kernel driver has bound this address"), "\(error)")
            }
        }
    }
}

@Suite("i2c-dev source on a mock bus, under umockdev-wrapper")
struct I2CSourceUnderPreload {
    @Test("the mock-bus suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        let run = try UmockdevPreload.rerun(suite: "MotionDevicesTests.I2CSourceMockTests/")
        #expect(run.passed, "\(run)")
    }
}
