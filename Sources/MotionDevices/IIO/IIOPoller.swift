// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import MotionCore
import IIO
import Realtime
import Handoff
import LibC

/// Reads an IIO IMU by polling its `in_*_raw` attributes, one sample per
/// period, as iio-sensor-proxy's polling driver does: what a device without
/// a buffer is read by (`IIOPolledMotionSource`), and what a buffered
/// capture falls back to when its trigger stays silent (`IIOMotionSource`).
///
/// Each axis's raw file is kept open and read with one `pread`, its offset
/// added and its scale applied, then the mount matrix. A sample is stamped
/// with the middle of its reads, which the driver makes one after another:
/// the slower the bus, the farther apart its axes were measured, which is
/// why a buffer comes first wherever there is one.
///
/// Made (it opens files) before the loop; `run` allocates nothing.
struct IIOPoller {
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

    let imu: IIOIMU
    let accel: Axes
    let gyro: Axes?
    /// The magnetometer's, in µT, read at its own slower rate.
    let magn: Axes?
    let magnRate: Double
    let mount: MountMatrix
    let magnMount: MountMatrix
    let accelerometer: AccelerometerCalibration

    /// Opens the raw files of `imu`'s devices and reads their scales and
    /// offsets once. `mount` is nil to look it up as capture does; `user`
    /// is this user's correction of the chip (mount, accelerometer).
    init(imu: IIOIMU, acceleration: IIOAccelerationChannels, mount: MountMatrix?, udevDirectory: String,
         user: ChipCorrection?) throws(IIOError) {
        self.imu = imu
        var accel: Axes?, gyro: Axes?, magn: Axes?, magnRate = 50.0, magnDevice: IIODevice?
        for device in imu.devices {
            if accel == nil { accel = try Self.axes(acceleration.rawValue, of: device) }
            if gyro == nil { gyro = try Self.axes("anglvel", of: device) }
            if magn == nil, let found = try Self.axes("magn", of: device) {
                func perCount(_ scale: Double) -> Double { IIOMagnetometer.microteslaPerCount(deviceName: device.name, scale: scale) }
                magn = Axes(files: found.files, scale: Vector3(perCount(found.scale.x), perCount(found.scale.y), perCount(found.scale.z)),
                            offset: found.offset)
                magnRate = IIOMagnetometer.pollRate(of: device)
                magnDevice = device
            }
        }
        guard let accel else {
            throw IIOError(errno: ENOENT, operation: "find in_\(acceleration.rawValue)_{x,y,z}_raw", path: imu.devices[0].sysfsPath)
        }
        self.accel = accel
        self.gyro = gyro
        self.magn = magn
        self.magnRate = magnRate
        let mount = mount ?? MountMatrixLookup.iio(imu.devices[0], udevDirectory: udevDirectory, user: user).matrix
        self.mount = mount
        self.accelerometer = acceleration == .accelerometer ? user?.accelerometer ?? .none : .none
        self.magnMount = magnDevice.map { IIOMagnetometer.mount(of: $0, accelMount: mount) } ?? mount
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

    /// One sample's reads, all of them: the accelerometer, the gyroscope,
    /// and the magnetometer when `withField`. Stamped `now`; the caller
    /// stamps it again once the reads are done.
    func read(withField: Bool) throws(IIOError) -> MotionSample {
        var sample = MotionSample(timestamp: 0, acceleration: mount.apply(accelerometer.apply(try accel.read())), fields: .acceleration)
        if let gyro {
            sample.rotationRate = mount.apply(try gyro.read())
            sample.fields.insert(.rotationRate)
        }
        if withField, let magn {
            sample.magneticField = magnMount.apply(try magn.read())
            sample.fields.insert(.magneticField)
        }
        return sample
    }

    /// Polls at `rate` on `thread` until it is asked to stop or the device
    /// fails, offering each sample (judged by `judge`: a buffered capture
    /// that falls back passes its own, so time keeps moving forward across
    /// the hand-over). A read failing with a transient error is retried
    /// and, failing still, the sample dropped (`SensorThread`).
    func run(rate: Double, thread: SensorThread, judge: inout SamplePlausibility) {
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
        let place = imu.placeDescription
        thread.readLoop(
            .init(slice: schedule.period, retriesPasses: false),
            keepsFailing: { error in
                "\(place) keeps failing: \(error) for \(Duration.nanoseconds(TransientFaults.giveUpAfter)); is its bus wired well (short wires, pull-ups)?"
            },
            failed: { error in
                error.isDeviceGone || error.errno == ENOENT
                    ? "\(place) is gone: unplugged, or its driver was unbound (\(error.path))"
                    : "\(error.withSetupAdvice)"
            }
        ) { () throws(IIOError) -> SensorThread.Pass in
            MonotonicClock.sleep(until: schedule.deadline)
            let before = MonotonicClock.now()
            schedule.woke(at: before)
            if before >= nextCheck {
                nextCheck = before + 250_000_000
                if let gone = directories.first(where: { !$0.isAccessible(.exists) }) {
                    thread.fail("\(place) is gone: unplugged, or its driver was unbound (\(gone.string) no longer exists)")
                    return .ended
                }
            }
            let withField = magn != nil && polls % magnEvery == 0
            polls &+= 1
            var sample = try thread.retrying { () throws(IIOError) in try read(withField: withField) }
            if sample.hasMagneticField, !repeats.isNew(sample.magneticField) { sample.fields.remove(.magneticField) }
            sample.timestamp = before + (MonotonicClock.now() - before) / 2
            thread.offer(sample, judge: &judge)
            return .data
        }
    }
}
