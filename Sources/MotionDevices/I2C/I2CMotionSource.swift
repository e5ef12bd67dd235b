// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import I2C
import MotionCore
import Realtime
import Handoff
import SystemCalls
import Synchronization
import LibC

/// An LSM9DS1 read through i2c-dev with SMBus transfers on a thread of its
/// own: the Sense HAT's IMU on a kernel that has no driver for it.
///
/// `start()` checks the chip's WHO_AM_I, keeps the control registers it is
/// about to change, sets the rate nearest at or above the one asked for
/// (14.9 to 952 Hz), ±8 g and ±500 °/s, and starts the thread. The thread
/// looks at the status register as `DataReadyPacing` schedules and, when
/// both sets are new, reads the gyroscope's and accelerometer's output
/// registers in one block transfer each: three transfers for a sample plus
/// the looks that found nothing. Where the magnetometer answered too, it
/// runs at its own slower rate (80 Hz at most), and its status register is
/// looked at after a sample once a reading may be due: a new reading costs
/// two more transfers and rides on that sample. `stop()` joins the thread
/// and writes back the registers as they were, which powers the chip down
/// again if it was.
///
/// A transfer that fails as a glitching bus makes them fail (EREMOTEIO,
/// EAGAIN, ETIMEDOUT, EIO) is made again with the rest of its sample, from
/// the status look on (`TransientFaults`): a sample is pushed whole or not
/// at all. Only a second of failures without one good sample ends the source.
public final class I2CMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `chip` and `saved` belong to start/stop and,
    // between them, to the sensor thread; `thread` and the counters are atomic.

    public let imu: I2CIMU
    public let samples: SPSCRing<MotionSample>
    public private(set) var rate: Double
    public let displayName: String
    /// How long without a new sample before the source gives up and says why.
    public let noDataTimeout: Duration

    private let wantedRate: Double
    private let calibrations: CalibrationStore?
    /// Chosen at start: the user's mount, else the board's; the accelerometer's calibration.
    private var mount: MountMatrix
    private var accelerometer = AccelerometerCalibration.none
    private var chip: I2CDevice?
    private var saved: [(register: UInt8, value: UInt8)] = []
    private var magnetometer: I2CDevice?
    private var savedMagnetometer: [(register: UInt8, value: UInt8)] = []
    /// The magnetometer's rate while it runs, Hz; nil without one.
    public private(set) var magnetometerRate: Double?
    private let thread: SensorThread
    private let missed = Atomic<Int>(0)
    private let transfers = Atomic<Int>(0)

    /// - Parameter calibrations: where this user's calibration files are:
    ///   the mount matrix they set (before the HAT's) and the accelerometer's
    ///   calibration come from there. nil: none.
    public init(imu: I2CIMU, rate: Double = 200, calibrations: CalibrationStore? = nil, noDataTimeout: Duration = .seconds(2),
                ringCapacity: Int = defaultSampleRingCapacity) {
        self.imu = imu
        self.calibrations = calibrations
        self.mount = imu.mount
        self.wantedRate = rate
        self.rate = LSM9DS1.outputRate(for: rate).hertz
        self.noDataTimeout = noDataTimeout
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        self.thread = SensorThread(samples: samples)
        self.displayName = imu.placeDescription
    }

    public var calibrationIdentity: String? { imu.identity }

    public var scales: SensorScales? {
        SensorScales(accel: LSM9DS1.accelScale, gyro: LSM9DS1.gyroScale, hasGyroscope: true, mount: mount,
                     magnetometer: imu.magnetometerAddress == nil ? nil : LSM9DS1.magnetometerScale, accelerometer: accelerometer)
    }

    public var health: SourceHealth { thread.health }
    public var statusChanges: UInt64 { thread.statusChanges }
    /// Samples the chip made that were overwritten before the thread came
    /// to read them (the thread was not scheduled for a period or more). Any thread.
    public var missedCount: Int { missed.load(ordering: .relaxed) }
    /// SMBus transfers made since `start()`: status looks and output reads. Any thread.
    public var transferCount: Int { transfers.load(ordering: .relaxed) }

    public func start() throws {
        guard !thread.hasStarted else { return }
        thread.prepareStart()
        missed.store(0, ordering: .relaxed)
        transfers.store(0, ordering: .relaxed)
        let user = calibrations?.chipCorrection(for: imu.identity)
        mount = imu.chosenMount(user: user).matrix
        accelerometer = user?.accelerometer ?? .none
        let chip: I2CDevice
        do {
            let output = LSM9DS1.outputRate(for: wantedRate)
            let writes = LSM9DS1.startWrites(rate: output)
            (chip, saved) = try open(imu.adapter.node, imu.address, identity: LSM9DS1.accelGyroIdentity,
                                          what: "an LSM9DS1", keeping: writes)
            // Held from here, so that a write failing half way is undone by restore().
            self.chip = chip
            for write in writes { try retried { () throws(I2CError) in try chip.writeRegister(write.register, write.value) } }
            rate = output.hertz
            if let address = imu.magnetometerAddress { try startMagnetometer(at: address) }
        } catch let error as I2CError {
            restore()
            throw SourceError(description: advice(for: error), kind: error.isPermissionDenied ? .permissionDenied : .unavailable)
        } catch {
            restore()
            throw error
        }
        do {
            let magnetometer = self.magnetometer, magnetometerRate = self.magnetometerRate
            try thread.start(name: "tiltmaze-i2c") { [self] in
                run(chip, magnetometer: magnetometer.map { ($0, magnetometerRate ?? 80) })
            }
        } catch {
            restore()
            throw error
        }
    }

    public func stop() {
        guard thread.stop() else { return }
        restore()
    }

    private func startMagnetometer(at address: UInt8) throws {
        let output = LSM9DS1.magnetometerRate(for: rate)
        let writes = LSM9DS1.magnetometerStartWrites(rate: output)
        let device: I2CDevice
        (device, savedMagnetometer) = try open(imu.adapter.node, address, identity: LSM9DS1.magnetometerIdentity,
                                                    what: "an LSM9DS1 magnetometer", keeping: writes)
        magnetometer = device
        for write in writes { try retried { () throws(I2CError) in try device.writeRegister(write.register, write.value) } }
        magnetometerRate = output.hertz
    }

    /// Opens the chip at `address`, checks its WHO_AM_I (register 0x0f at
    /// both of the LSM9DS1's addresses) and reads what the registers `writes`
    /// will change hold now, for `restore()`.
    private func open(_ node: String, _ address: UInt8, identity expected: UInt8, what: String,
                      keeping writes: [(register: UInt8, value: UInt8)]) throws -> (I2CDevice, [(register: UInt8, value: UInt8)]) {
        let device = try I2CDevice(bus: node, address: address)
        let identity = try retried { () throws(I2CError) in try device.readRegister(LSM9DS1.Register.whoAmI) }
        guard identity == expected else {
            throw SourceError(description: "\(device.place) is not \(what) (WHO_AM_I reads \(I2CDevice.hex(identity)), expected \(I2CDevice.hex(expected))); \(SensorListingHint.i2c)")
        }
        var kept: [(register: UInt8, value: UInt8)] = []
        for write in writes {
            kept.append((write.register, try retried { () throws(I2CError) in try device.readRegister(write.register) }))
        }
        return (device, kept)
    }

    /// A transfer of start or stop, made again (and counted) when the bus glitches.
    private func retried<T>(_ transfer: () throws(I2CError) -> T) throws(I2CError) -> T {
        try thread.retrying(whileStopped: true, transfer)
    }

    /// Puts the control registers back, the gyroscope's rate and the
    /// magnetometer's mode first (that powers them down when they were off),
    /// and lets the bus go. A chip that has gone cannot be written: nothing
    /// more to do then.
    private func restore() {
        if let chip {
            for entry in saved.reversed() { try? retried { () throws(I2CError) in try chip.writeRegister(entry.register, entry.value) } }
        }
        if let magnetometer {
            for entry in savedMagnetometer.reversed() { try? retried { () throws(I2CError) in try magnetometer.writeRegister(entry.register, entry.value) } }
        }
        saved = []
        savedMagnetometer = []
        chip = nil
        magnetometer = nil
        magnetometerRate = nil
    }

    private func advice(for error: I2CError) -> String {
        if error.errno == EBUSY, let driver = imu.adapter.claim(of: imu.address).driver {
            return "\(error.path): the kernel driver \(driver) holds this chip, so it is not read over i2c-dev; use it through that driver, as an IIO device"
        }
        if error.isPermissionDenied {
            return "\(error.path): \(DeviceAccess.check(imu.adapter.node, need: .readWrite, grantedBy: .nobody).explanation)"
        }
        return error.description
    }

    // MARK: The sensor thread

    private func run(_ chip: I2CDevice, magnetometer: (device: I2CDevice, rate: Double)?) {
        let period = Int64((1e9 / rate).rounded())
        var pacing = DataReadyPacing(period: period)
        var judge = SamplePlausibility()
        let mount = self.mount, accelerometer = self.accelerometer
        // The reads land here; allocated once, not per sample.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 18, alignment: 8)
        defer { buffer.deallocate() }
        let gyro = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< 6])
        let accel = UnsafeMutableRawBufferPointer(rebasing: buffer[6 ..< 12])
        let field = UnsafeMutableRawBufferPointer(rebasing: buffer[12 ..< 18])
        // The magnetometer is looked at after a sample once 7/8 of its
        // period has passed since its last reading, then after each sample.
        let fieldPeriod = magnetometer.map { Int64((1e9 / $0.rate).rounded()) } ?? 0
        var nextFieldLook: Int64 = 0
        var next = MonotonicClock.now()
        let gone = { (error: I2CError) in
            "\(self.imu.placeDescription) is gone: \(error.description); is the board seated (or the breakout's wires on)?"
        }
        // A pass: the status look at its time and, when both sets are new,
        // the sample's reads. A retry makes all of them again from the look
        // on, so no sample is put together from reads of two moments; after
        // a pass whose tries all failed, the next look comes a period on, as
        // after a sample.
        thread.readLoop(
            .init(slice: 250_000_000, failAfter: noDataTimeout.nanoseconds, retriesPasses: false),
            keepsFailing: { error in
                I2CDevice.isGone(error) ? gone(error)
                    : "\(imu.placeDescription) keeps failing: \(error.description) for \(Duration.nanoseconds(TransientFaults.giveUpAfter)); is the board seated, its wires short?"
            },
            failed: { error in I2CDevice.isGone(error) ? gone(error) : error.description },
            silent: { "no data from \(displayName) for \(noDataTimeout): its status register never said a new sample was ready (the chip was reset or powered down?)" }
        ) { () throws(I2CError) -> SensorThread.Pass in
            MonotonicClock.sleep(until: next)
            let now = MonotonicClock.now()
            var ready = false, failed = true
            defer {
                missed.store(pacing.missed, ordering: .relaxed)
                next = pacing.nextLook(after: now, found: ready || failed)
            }
            let pacingBefore = pacing
            let found = try thread.retrying { () throws(I2CError) -> MotionSample? in
                pacing = pacingBefore
                let status = try chip.readRegister(LSM9DS1.Register.status)
                transfers.wrappingAdd(1, ordering: .relaxed)
                ready = status & LSM9DS1.bothReady == LSM9DS1.bothReady
                guard let time = pacing.look(at: now, ready: ready) else { return nil }
                try chip.readRegisters(from: LSM9DS1.Register.gyroOutput, into: gyro)
                try chip.readRegisters(from: LSM9DS1.Register.accelOutput, into: accel)
                transfers.wrappingAdd(2, ordering: .relaxed)
                var sample = LSM9DS1.sample(gyro: UnsafeRawBufferPointer(gyro), accel: UnsafeRawBufferPointer(accel),
                                            timestamp: time, mount: mount, accelerometer: accelerometer)
                if let magnetometer, now >= nextFieldLook {
                    let fieldStatus = try magnetometer.device.readRegister(LSM9DS1.MagnetometerRegister.status)
                    transfers.wrappingAdd(1, ordering: .relaxed)
                    if fieldStatus & LSM9DS1.magnetometerReady != 0 {
                        try magnetometer.device.readRegisters(
                            from: LSM9DS1.MagnetometerRegister.output | LSM9DS1.magnetometerAutoIncrement, into: field)
                        transfers.wrappingAdd(1, ordering: .relaxed)
                        sample.magneticField = LSM9DS1.magneticField(UnsafeRawBufferPointer(field), mount: mount)
                        sample.fields.insert(.magneticField)
                    }
                }
                return sample
            }
            failed = false
            guard let sample = found else { return .nothing }
            if sample.hasMagneticField { nextFieldLook = now + fieldPeriod * 7 / 8 }
            thread.offer(sample, judge: &judge)
            return .data
        }
    }
}
