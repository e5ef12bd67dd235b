// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import MotionCore
import SystemCalls
import SystemPackage
import I2C

/// Every motion sensor on this machine, judged once, and the one
/// `--source auto` uses: the single answer `play`, `monitor`, `devices` and
/// `doctor` all take, so they can never disagree about it.
///
/// An IMU fixed to the board (IIO) comes before a controller in the
/// player's hands (evdev), then an LSM9DS1 read through i2c-dev (a Sense
/// HAT on a kernel with no driver for it); any comes before the simulated board. A
/// candidate is skipped, with its reason kept, when this user may not open
/// or configure every file capture touches, or when an IIO device needs a
/// trigger and none can be had.
public struct SensorSelection: Sendable {
    /// Why a candidate is passed over.
    public enum Refusal: Equatable, Sendable {
        /// The IMU is a gyroscope alone: it cannot tell which way is down,
        /// so it can never tilt the board.
        case noAccelerometer
        /// This user may not use the file at `path` (the first one found).
        case noPermission(path: String)
        /// A device of the IMU needs a trigger and none exists or can be made.
        case noTrigger
        /// A device of the IMU has no buffer (its driver makes one only when
        /// the chip's interrupt line is declared: inv_mpu6050, st_lsm6dsx)
        /// and it is served by iiod, where polling is not offered. A local
        /// one is polled instead (`isPolled`).
        case noBuffer
    }

    /// One device of an IMU: every file capture writes, checked, and the
    /// trigger it would run on (nil: it needs one and none can be had).
    public struct DeviceReadiness: Sendable {
        public let device: IIODevice
        /// The node first, then each attribute capture writes; for a device
        /// without a buffer, the raw files polling reads.
        public let access: [DeviceAccess]
        /// nil: it needs one and none can be had, or it has no buffer to trigger.
        public let trigger: TriggerChoice?
        public var hasBuffer: Bool { device.hasBuffer }
    }

    /// An IIO IMU and what using it needs.
    public struct IMUCandidate: Sendable {
        public let imu: IIOIMU
        public let devices: [DeviceReadiness]

        public var refusal: Refusal? {
            if !imu.hasAccelerometer { return .noAccelerometer }
            if isPolled && !(imu.devices.first?.context.isLocal ?? true) { return .noBuffer }
            if let denied = devices.lazy.flatMap(\.access).first(where: { !$0.allowed }) {
                return .noPermission(path: denied.path)
            }
            return devices.contains { $0.hasBuffer && $0.trigger == nil } ? .noTrigger : nil
        }

        /// Whether it is read by polling its raw values: a device of it has no buffer.
        public var isPolled: Bool { devices.contains { !$0.hasBuffer } }

        /// "mpu6050 on iio:device0", as the player is told; "… (polled: no
        /// buffer)" when it is polled, as the source names itself.
        public var description: String { imu.placeDescription + (isPolled && refusal == nil ? IIOPolledMotionSource.nameSuffix : "") }
    }

    /// An evdev motion node (and its controller's gamepad node) and whether this user may read them.
    public struct EvdevCandidate: Sendable {
        public let sensor: EvdevMotionSensor
        public let motion: DeviceAccess
        public let gamepad: DeviceAccess?

        public var refusal: Refusal? { motion.allowed ? nil : .noPermission(path: sensor.motion.path) }

        /// "… DualSense Wireless Controller Motion Sensors on /dev/input/event4", as the player is told.
        public var description: String { "\(sensor.motion.name) on \(sensor.motion.path)" }
    }

    /// The sensor `--source auto` uses.
    public enum Choice: Sendable {
        case iio(IMUCandidate)
        case evdev(EvdevCandidate)
        case i2c(I2CIMU)

        public var description: String {
            switch self {
            case .iio(let imu): imu.description
            case .evdev(let node): node.description
            case .i2c(let imu): imu.placeDescription
            }
        }

        /// Who the sensor is for its stored calibration (as its source will say).
        public var calibrationIdentity: String {
            switch self {
            case .iio(let candidate): candidate.imu.identity
            case .evdev(let node): EvdevMotionSource.calibrationIdentity(of: node.sensor.motion)
            case .i2c(let imu): imu.identity
            }
        }

        /// The mount matrix its source will turn readings by, for this user (`user`: their correction).
        public func mount(user: ChipCorrection?, udevDirectory: String = UdevDatabase.defaultDirectory) -> ChosenMountMatrix {
            switch self {
            case .iio(let candidate): MountMatrixLookup.iio(candidate.imu.devices[0], udevDirectory: udevDirectory, user: user)
            case .evdev(let node):
                MountMatrixLookup.evdev(node.sensor.motion.path, profile: EvdevControllerProfile(name: node.sensor.motion.name),
                                        udevDirectory: udevDirectory, user: user)
            case .i2c(let imu): imu.chosenMount(user: user)
            }
        }
    }

    /// Why the IIO devices could not be read at all (the context failed), if so.
    public let iioFailure: String?
    /// IIO devices that are not triggers, IMUs or not.
    public let iioDeviceCount: Int
    public let imus: [IMUCandidate]
    public let evdev: [EvdevCandidate]
    /// Every input node, motion or not (gamepads, the Sense HAT joystick).
    public let inputNodes: [InputNode]
    /// Whether hrtimer triggers can be had, for IMUs without a trigger of their own.
    public let hrtimer: HrtimerTrigger.Availability
    /// Each I²C bus looked at for an LSM9DS1: where a HAT or breakout can sit (`I2CBusChoice`).
    public let i2c: [I2CProbe]
    /// The buses not looked at, and why.
    public var i2cSkipped: [I2CProbe.SkippedBus] = []

    /// The first IMU nothing refuses, else the first readable motion node,
    /// else the first LSM9DS1 on an I²C bus.
    public var choice: Choice? {
        if let imu = imus.first(where: { $0.refusal == nil }) { return .iio(imu) }
        if let node = evdev.first(where: { $0.refusal == nil }) { return .evdev(node) }
        if let imu = i2c.lazy.flatMap(\.imus).first { return .i2c(imu) }
        return nil
    }

    /// What `--source auto` reads, as the player is told: the chosen
    /// sensor, or the simulated board with why every candidate was skipped.
    public var autoDescription: String {
        if let choice { return choice.description }
        var reasons: [String] = []
        var refused: [String] = []
        for imu in imus {
            switch imu.refusal {
            case .noPermission(let path)?: refused.append(path)
            case .noTrigger?: reasons.append("\(imu.imu.name) has no trigger")
            case .noBuffer?: reasons.append("\(imu.imu.name) has no buffer")
            case .noAccelerometer?: reasons.append("\(imu.imu.name) has no accelerometer")
            case nil: break
            }
        }
        for node in evdev {
            if case .noPermission(let path)? = node.refusal { refused.append(path) }
        }
        for bus in i2c where !bus.access.allowed { refused.append(bus.adapter.node) }
        if !refused.isEmpty { reasons.append("no permission for \(refused.joined(separator: ", "))") }
        if reasons.isEmpty { return "simulated board (no IMU found)" }
        return "simulated board (\(reasons.joined(separator: "; ")): `tiltmaze doctor` says why)"
    }

    /// Looks at every IIO IMU and evdev motion node, and for an LSM9DS1 on
    /// each I²C bus. Opens no IIO or input node (it reads sysfs, the IIO
    /// context, and checks access); an I²C bus is opened to read the
    /// WHO_AM_I register at the LSM9DS1's addresses (`I2CProbe`).
    ///
    /// With `iioURI` (a libiio URI such as `ip:raspberrypi.local`), the IMUs
    /// are the ones that iiod serves, and only they: the player asked for
    /// that sensor. Their files are the far machine's, so access is not
    /// checked from here (iiod runs as root); gamepads are still this machine's.
    public static func examine(sysfs: String = "/sys",
                               configfsRoot: String = HrtimerTrigger.defaultConfigfsRoot,
                               iioURI: String? = nil) -> SensorSelection {
        var failure: String?
        var deviceCount = 0
        var imus: [IMUCandidate] = []
        do {
            if let context = try iioContext(uri: iioURI, sysfs: sysfs) {
                deviceCount = context.devices.filter { !$0.isTrigger }.count
                imus = IIOIMU.find(in: context).map { imu in
                    IMUCandidate(imu: imu, devices: imu.devices.map { device in
                        guard device.hasBuffer else {
                            return DeviceReadiness(device: device, access: context.isLocal ? IIOCaptureAccess.checkPolling(device) : [], trigger: nil)
                        }
                        return DeviceReadiness(device: device, access: context.isLocal ? IIOCaptureAccess.check(device) : [],
                                               trigger: TriggerChoice.choose(for: device, configfsRoot: configfsRoot))
                    })
                }
            }
        } catch {
            failure = iioURI.map { Self.unreachable($0, error) } ?? "\(error)"
        }
        let nodes = SensorDiscovery.inputNodes(sysfs: sysfs)
        let evdev = iioURI != nil ? [] : SensorDiscovery.pair(nodes).map { sensor in
            EvdevCandidate(sensor: sensor, motion: DeviceAccess.check(sensor.motion.path, need: .read, grantedBy: .seat),
                           gamepad: sensor.gamepad.map { DeviceAccess.check($0.path, need: .read, grantedBy: .seat) })
        }
        let buses: (probes: [I2CProbe], skipped: [I2CProbe.SkippedBus]) = iioURI != nil ? ([], []) : I2CProbe.probeAll(sysfs: sysfs, forAuto: true)
        return SensorSelection(iioFailure: failure, iioDeviceCount: deviceCount, imus: imus, evdev: evdev,
                               inputNodes: nodes, hrtimer: HrtimerTrigger.availability(configfsRoot: configfsRoot), i2c: buses.probes,
                               i2cSkipped: buses.skipped)
    }

    /// The context at `uri` (through iiod), else the local one (nil when
    /// this machine has no IIO bus at all).
    static func iioContext(uri: String?, sysfs: String = "/sys") throws(IIOError) -> IIOContext? {
        if let uri { return try IIOContext(uri: uri) }
        return try localIIOContext(sysfs: sysfs)
    }

    /// What to say when iiod at `uri` cannot be reached.
    static func unreachable(_ uri: String, _ error: IIOError) -> String {
        "cannot reach iiod at \(uri): \(error); is iiod running there (`systemctl status iiod`) and its port (30431 unless given) open?"
    }

    /// The local IIO context; nil when the machine has no IIO bus at all
    /// (no devices, not an error).
    static func localIIOContext(sysfs: String = "/sys") throws(IIOError) -> IIOContext? {
        guard FilePath(sysfs + "/bus/iio/devices").isAccessible(.exists) else { return nil }
        return try IIOContext()
    }

    /// The source for `choice`, or the simulated board; described as
    /// `autoDescription`. `calibrations`: this user's calibration files,
    /// whose mount matrix and accelerometer calibration the source applies.
    public func autoSource(rate: Double, acceleration: IIOAccelerationChannels = .accelerometer,
                           calibrations: CalibrationStore? = nil) -> ChosenSource {
        let source: any MotionSource
        switch choice {
        case .iio(let candidate)?: source = IIOIMU.source(for: candidate.imu, rate: rate, acceleration: acceleration, calibrations: calibrations)
        case .evdev(let candidate)?: source = EvdevMotionSource(node: candidate.sensor.motion, calibrations: calibrations)
        case .i2c(let imu)?: source = I2CMotionSource(imu: imu, rate: rate, calibrations: calibrations)
        case nil: return ChosenSource(simulated: SimulatedSource(rate: rate), description: autoDescription)
        }
        return ChosenSource(source: source, description: autoDescription)
    }
}
