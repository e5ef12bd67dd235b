// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import MotionCore
import IIO
import Realtime
import Handoff
#if canImport(Glibc)
import Glibc
#endif

/// An IIO IMU whose driver made no buffer (no interrupt line: a four-wire
/// MPU-6050, an ADXL345 wired without INT), read by polling: on a thread of
/// its own, at the rate asked, each axis's `in_*_raw` is read (one `pread`
/// on a file kept open), its offset added and its scale applied, then the
/// mount matrix, as iio-sensor-proxy's polling driver does.
///
/// A sample is stamped with the middle of its reads, which the driver makes
/// one after another: the slower the bus, the farther apart its axes were
/// measured, which is why a buffer comes first wherever there is one.
///
/// `start()` sets the rate as capture would (restored by `stop()`; the
/// timestamp clock is left alone, since samples are stamped here), opens the
/// raw files and reads the scales and offsets once.
public final class IIOPolledMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `accel`, `gyro`, `mount` and `setups` belong to
    // start/stop and, between them, to the sensor thread; `state` is atomic.

    public let imu: IIOIMU
    public let samples: SPSCRing<MotionSample>
    public private(set) var rate: Double
    public let displayName: String

    /// Three axes of one kind, each a raw file with its offset and scale.
    struct Axes {
        let files: (IIORawValueFile, IIORawValueFile, IIORawValueFile)
        let scale: Vector3
        let offset: Vector3

        func read() throws(IIOError) -> Vector3 {
            Vector3((Double(try files.0.read()) + offset.x) * scale.x,
                    (Double(try files.1.read()) + offset.y) * scale.y,
                    (Double(try files.2.read()) + offset.z) * scale.z)
        }
    }

    private var accel: Axes?
    private var gyro: Axes?
    /// The magnetometer's, in µT, read at its own slower rate.
    private var magn: Axes?
    private var magnRate = 50.0
    private var mount = MountMatrix.identity
    private var magnMount = MountMatrix.identity
    private var setups: [IIOCaptureSetup] = []
    private var thread: OSThread?
    private let wantedRate: Double
    private let mountOverride: MountMatrix?
    private let udevDirectory: String
    private let state = SourceRunState()

    public init(imu: IIOIMU, rate: Double = 200, mount: MountMatrix? = nil, acceleration: IIOAccelerationChannels = .accelerometer,
                ringCapacity: Int = defaultSampleRingCapacity, udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.imu = imu
        self.acceleration = acceleration
        self.wantedRate = rate
        self.rate = rate
        self.mountOverride = mount
        self.udevDirectory = udevDirectory
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        self.displayName = imu.placeDescription + Self.nameSuffix + (acceleration == .chipGravity ? IIOMotionSource.chipFusionSuffix : "")
    }

    /// Where the tilt comes from.
    public let acceleration: IIOAccelerationChannels

    public var calibrationIdentity: String? { imu.identity }

    /// What the player's line adds to the IMU's place.
    public static let nameSuffix = " (polled: no buffer)"

    public var scales: SensorScales? {
        guard let accel else { return nil }
        return SensorScales(accel: accel.scale.x, gyro: gyro?.scale.x, hasGyroscope: gyro != nil, mount: mount,
                            magnetometer: magn?.scale.x)
    }

    public var failure: String? { state.failure }
    public var statusChanges: UInt64 { state.failureChanges }
    public var rejectedCount: Int { state.rejectedCount }

    public func start() throws {
        guard !state.hasStarted else { return }
        state.prepareStart()
        if let advice = imu.noAccelerometerAdvice { throw SourceError(description: advice) }
        if acceleration == .chipGravity, let refusal = imu.chipFusionRefusal { throw SourceError(description: refusal) }
        do {
            try prepare()
        } catch {
            release()
            throw error.withSetupAdvice
        }
        // The device's own rate caps what polling can see: faster reads would repeat values.
        rate = min(wantedRate, setups.compactMap(\.rate).min() ?? wantedRate)
        state.markRunning()
        do {
            thread = try OSThread(name: "tiltmaze-poll") { [self] in run() }
        } catch {
            state.markStopped()
            release()
            throw error
        }
    }

    public func stop() {
        guard state.requestStop() || thread != nil else { return }
        thread?.join()
        thread = nil
        release()
    }

    /// The rate (a rate this user may not set is polled as it stands), the
    /// raw files, scales and offsets, and the mount matrix.
    private func prepare() throws(IIOError) {
        for device in imu.devices {
            let setup = IIOCaptureSetup(device: device)
            setups.append(setup)
            let rateResult = Result { () throws(IIOError) in try setup.configureRate(wantedRate: wantedRate) }
            if case .failure(let error) = rateResult, !error.isPermissionDenied { throw error }
            if accel == nil { accel = try Self.axes(acceleration.rawValue, of: device) }
            if gyro == nil { gyro = try Self.axes("anglvel", of: device) }
            if magn == nil, let found = try Self.axes("magn", of: device) {
                func perCount(_ scale: Double) -> Double { IIOMagnetometer.microteslaPerCount(deviceName: device.name, scale: scale) }
                magn = Axes(files: found.files, scale: Vector3(perCount(found.scale.x), perCount(found.scale.y), perCount(found.scale.z)),
                            offset: found.offset)
                magnRate = IIOMagnetometer.pollRate(of: device)
            }
        }
        guard accel != nil else {
            throw IIOError(errno: ENOENT, operation: "find in_\(acceleration.rawValue)_{x,y,z}_raw", path: imu.devices[0].sysfsPath)
        }
        mount = mountOverride ?? MountMatrixLookup.iio(imu.devices[0], udevDirectory: udevDirectory).matrix
        if magn != nil, let device = imu.devices.first(where: { $0.channel(id: "magn_x") != nil }) {
            magnMount = IIOMagnetometer.mount(of: device, accelMount: mount)
        }
    }

    private func release() {
        accel = nil
        gyro = nil
        magn = nil
        for setup in setups { setup.restore() }
        setups = []
    }

    static func axes(_ type: String, of device: IIODevice) throws(IIOError) -> Axes? {
        var files: [IIORawValueFile] = [], scale: [Double] = [], offset: [Double] = []
        for axis in ["x", "y", "z"] {
            guard let channel = device.channel(id: "\(type)_\(axis)"), !channel.isOutput,
                  channel.attributeNames.contains("raw") else { return nil }
            files.append(try IIORawValueFile(channel: channel))
            scale.append(channel.attributeNames.contains("scale") ? try channel.readAttribute("scale", as: Double.self) : 1)
            offset.append(channel.attributeNames.contains("offset") ? try channel.readAttribute("offset", as: Double.self) : 0)
        }
        return Axes(files: (files[0], files[1], files[2]), scale: Vector3(scale[0], scale[1], scale[2]),
                    offset: Vector3(offset[0], offset[1], offset[2]))
    }

    // MARK: The sensor thread

    private func run() {
        guard let accel else { return }
        let gyro = gyro, magn = magn, mount = mount, magnMount = magnMount
        var judge = SamplePlausibility()
        var repeats = RepeatedReadingFilter()
        // The magnetometer is read on every n-th poll: reading it faster than
        // its driver samples it would only cost bus time for repeats.
        let magnEvery = max(1, Int((rate / magnRate).rounded(.up)))
        var polls = 0
        var schedule = PeriodicSchedule(period: Int64((1e9 / rate).rounded()), start: MonotonicClock.now(), maxCatchUp: 2)
        // A file kept open may go on reading after its device went (a
        // kernel says ENODEV, a mock keeps the old text): look for the
        // device's directory now and then too.
        let directories = imu.devices.map { FilePath($0.sysfsPath) }
        var nextCheck = schedule.deadline
        while state.isRunning {
            MonotonicClock.sleep(until: schedule.deadline)
            let before = MonotonicClock.now()
            schedule.woke(at: before)
            if before >= nextCheck {
                nextCheck = before + 250_000_000
                if let gone = directories.first(where: { !$0.isAccessible(.exists) }) {
                    state.fail("\(imu.placeDescription) is gone: unplugged, or its driver was unbound (\(gone.string) no longer exists)")
                    return
                }
            }
            do {
                var sample = MotionSample(timestamp: 0, acceleration: mount.apply(try accel.read()), fields: .acceleration)
                if let gyro {
                    sample.rotationRate = mount.apply(try gyro.read())
                    sample.fields.insert(.rotationRate)
                }
                if let magn, polls % magnEvery == 0 {
                    let field = magnMount.apply(try magn.read())
                    if repeats.isNew(field) {
                        sample.magneticField = field
                        sample.fields.insert(.magneticField)
                    }
                }
                polls &+= 1
                sample.timestamp = before + (MonotonicClock.now() - before) / 2
                if judge.accept(sample) {
                    samples.push(sample)
                } else {
                    state.reject()
                }
            } catch {
                state.fail(error.isDeviceGone || error.errno == ENOENT
                     ? "\(imu.placeDescription) is gone: unplugged, or its driver was unbound (\(error.path))"
                     : "\(error.withSetupAdvice)")
                return
            }
        }
    }
}
