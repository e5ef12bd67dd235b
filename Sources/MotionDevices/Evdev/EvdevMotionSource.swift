// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import MotionCore
import Evdev
import Realtime
import Handoff
import Synchronization
import LibC

/// An evdev motion node (`INPUT_PROP_ACCELEROMETER`: a game controller's
/// motion sensors, a laptop or board accelerometer) read on a thread of its own.
///
/// `start()` opens the node, has the kernel stamp its events with
/// `CLOCK_MONOTONIC`, and reads the axes' resolutions and present values; the
/// thread then waits in `poll` and turns each frame (`SYN_REPORT`) into a
/// `MotionSample` the moment it arrives (`EvdevSampleAssembler`: SI units,
/// MSC_TIMESTAMP spacing, the mount matrix).
///
/// Controllers come and go (Bluetooth range, batteries, cables): when the
/// node disappears the source does not fail but reports an `interruption`
/// and looks every `reconnectInterval` for a motion node of the same
/// controller (same `uniq`, else same name), which may come back under
/// another event number; when it opens, the interruption clears and samples
/// flow again. The game pauses meanwhile.
public final class EvdevMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `connection` belongs to start/stop and, between
    // them, to the sensor thread; the rest is immutable or synchronised.

    /// The node as found at start; after a reconnection the live node may have another path.
    public let node: InputNode
    public let samples: SPSCRing<MotionSample>
    /// Nominal: the controller sets the pace (see `EvdevControllerProfile`).
    public let rate: Double
    public let displayName: String
    public let reconnectInterval: Duration
    /// What the driver is known to do differently (axes, rate).
    public let profile: EvdevControllerProfile

    private let mountOverride: MountMatrix?
    private let calibrations: CalibrationStore?
    private let sysfs: String
    private let udevDirectory: String
    private var connection: Connection?
    /// Where the controller was last opened: `node.path`, until it comes back
    /// elsewhere. Written by `start` and by the sensor thread between start and stop.
    private var livePath: String
    private let thread: SensorThread
    private let reconnections = Atomic<Int>(0)

    /// An open node and the state of its frames.
    private struct Connection {
        let device: EvdevDevice
        var feeder: EvdevSampleFeeder
    }

    /// - Parameters:
    ///   - node: the motion node (`SensorDiscovery.evdevSensors()`, or `InputNode` for a path).
    ///   - mount: the mount matrix to apply; nil takes udev's `ACCEL_MOUNT_MATRIX`
    ///     for the node, else the driver's convention (`EvdevControllerProfile`), else identity.
    ///   - calibrations: where this user's calibration files are: the mount
    ///     matrix they set (before udev's) and the accelerometer's
    ///     calibration come from there. nil: none.
    ///   - sysfs: where to look for the node again after it went away.
    public init(node: InputNode, mount: MountMatrix? = nil, calibrations: CalibrationStore? = nil,
                reconnectInterval: Duration = .milliseconds(250),
                ringCapacity: Int = defaultSampleRingCapacity, sysfs: String = "/sys",
                udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.node = node
        self.livePath = node.path
        self.profile = EvdevControllerProfile(name: node.name)
        self.rate = profile.nominalRate
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        self.thread = SensorThread(samples: samples)
        self.displayName = "\(node.name) on \(node.path)"
        self.reconnectInterval = reconnectInterval
        self.mountOverride = mount
        self.calibrations = calibrations
        self.sysfs = sysfs
        self.udevDirectory = udevDirectory
    }

    /// The controller's name and, when it has one, its unique id (a
    /// Bluetooth address), which tells two controllers of a kind apart.
    public var calibrationIdentity: String? { Self.calibrationIdentity(of: node) }

    /// "evdev NAME UNIQ": the identity a controller's calibration is kept under.
    public static func calibrationIdentity(of node: InputNode) -> String {
        "evdev \(node.name)" + (node.uniq.map { $0.isEmpty ? "" : " " + $0 } ?? "")
    }

    private let connectedScales = Mutex<SensorScales?>(nil)
    public var scales: SensorScales? { connectedScales.withLock { $0 } }

    /// Its interruption is set while the controller is away and the source
    /// waits for it to come back.
    public var health: SourceHealth { thread.health }
    public var statusChanges: UInt64 { thread.statusChanges }
    /// How many times the controller came back after going away.
    public var reconnectionCount: Int { reconnections.load(ordering: .relaxed) }

    /// Opens the node and starts the thread. Throws `EvdevError` naming the
    /// node: it cannot be opened (EACCES: the udev rules), or it is no motion sensor.
    public func start() throws {
        guard !thread.hasStarted else { return }
        thread.prepareStart()
        do {
            connection = try connectAtStart()
        } catch {
            throw error.withSetupAdvice
        }
        do {
            try thread.start(name: "tiltmaze-evdev") { [self] in run() }
        } catch {
            connection = nil
            throw error
        }
    }

    public func stop() {
        guard thread.stop() else { return }
        connection = nil
    }

    /// Opens the node where the controller was last seen; if that node is
    /// gone (the controller came back as another `eventN` before a stop),
    /// the same controller wherever it is now.
    private func connectAtStart() throws(EvdevError) -> Connection {
        do {
            return try connect(livePath)
        } catch where error.errno == ENOENT || error.errno == ENODEV {
            for candidate in sameController() {
                if let connection = try? connect(candidate.path) { return connection }
            }
            throw error
        }
    }

    /// Opens `path` and prepares its frames: monotonic event times, the
    /// resolutions, the axes' present values, the mount matrix.
    private func connect(_ path: String) throws(EvdevError) -> Connection {
        let device = try EvdevDevice(path: path)
        guard device.isMotionSensor else {
            throw EvdevError(errno: EINVAL, operation: "read motion", path: path,
                             detail: "\(device.name) is not a motion sensor (no INPUT_PROP_ACCELEROMETER): give its motion node, usually the one named \"… Motion Sensors\"; \(SensorListingHint.evdev)")
        }
        let accel = device.hasEvent(type: .abs, code: EvdevCode.absX) ? device.absInfo(EvdevCode.absX)?.resolution : nil
        let gyro = device.hasEvent(type: .abs, code: EvdevCode.absRX) ? device.absInfo(EvdevCode.absRX)?.resolution : nil
        guard accel != nil || (gyro ?? 0) > 0 else {
            throw EvdevError(errno: EINVAL, operation: "read motion", path: path,
                             detail: "\(device.name) has neither accelerometer axes (ABS_X/Y/Z) nor a gyroscope with a resolution")
        }
        try device.setClock(.monotonic)
        let user = calibrationIdentity.flatMap { calibrations?.chipCorrection(for: $0) }
        let mount = mountOverride ?? MountMatrixLookup.evdev(path, profile: profile, udevDirectory: udevDirectory, user: user).matrix
        // A device that does not give its units is scaled by gravity anew at each connection
        // (from its first still readings, bias and all): a calibration made under one scale would be wrong under the next.
        let accelerometer = (accel ?? 0) > 0 ? user?.accelerometer ?? .none : .none
        var assembler = EvdevSampleAssembler(accelResolution: accel, gyroResolution: gyro, mount: mount, accelerometer: accelerometer)
        // Resolutions are counts per g and per °/s (the input subsystem's convention for accelerometers).
        var scales = SensorScales(accel: accel.flatMap { $0 > 0 ? standardGravity / Double($0) : nil },
                                  gyro: gyro.flatMap { $0 > 0 ? Double.pi / 180 / Double($0) : nil },
                                  hasGyroscope: (gyro ?? 0) > 0, mount: mount, accelerometer: accelerometer)
        scales.accelerometerScaledByGravity = accel.map { $0 <= 0 } ?? false
        connectedScales.withLock { $0 = scales }
        for code in [EvdevCode.absX, EvdevCode.absY, EvdevCode.absZ, EvdevCode.absRX, EvdevCode.absRY, EvdevCode.absRZ] {
            if let value = device.currentValue(type: .abs, code: code) { assembler.setInitial(code: code, value: value) }
        }
        livePath = path
        return Connection(device: device, feeder: EvdevSampleFeeder(assembler: assembler))
    }

    // MARK: The sensor thread

    /// Waits in `poll` (a 100 ms slice, so `stop()` is noticed) and reads
    /// everything queued; without a connection, looks for the controller.
    /// A controller may lie still for ever, and one that went away is
    /// waited for, not failed: no silence ends this source. A read is not
    /// made again (the events it missed are the kernel's to resync), but a
    /// run of failing reads ends the source only after a second, as on
    /// every source.
    /// The event buffer is allocated once; a frame costs no allocation.
    private func run() {
        let capacity = 256
        let events = UnsafeMutableBufferPointer<EvdevEvent>.allocate(capacity: capacity)
        events.initialize(repeating: EvdevEvent(type: .syn, code: 0, value: 0, time: 0))
        defer { events.deallocate() }
        var connection = self.connection
        let describe = { (error: EvdevError) in "\(error.withSetupAdvice)" }
        thread.readLoop(.init(slice: 100_000_000, retriesPasses: false), keepsFailing: describe, failed: describe) { () throws(EvdevError) -> SensorThread.Pass in
            guard var live = connection else {
                MonotonicClock.sleep(until: MonotonicClock.now() + reconnectInterval.nanoseconds)
                connection = reconnect()
                return .nothing
            }
            do throws(EvdevError) {
                guard try live.device.waitForEvents(timeoutMilliseconds: 100) else { return .nothing }
                reading: while true {
                    let result = try live.device.readEvents(into: events)
                    switch result {
                    case .wouldBlock:
                        break reading
                    case .resynced(let n):
                        live.feeder.dropped()
                        feed(events, count: n, into: &live)
                    case .events(let n):
                        feed(events, count: n, into: &live)
                    }
                }
                connection = live
                return .data
            } catch where error.isDeviceGone {
                connection = nil
                thread.setInterruption(disconnectedText)
                return .nothing
            }
        }
    }

    private func feed(_ events: UnsafeMutableBufferPointer<EvdevEvent>, count: Int, into live: inout Connection) {
        let refused = live.feeder.feed(UnsafeBufferPointer(rebasing: events[0 ..< count]), into: samples)
        if refused > 0 { thread.reject(refused) }
    }

    /// The controller's motion node, if it is back and opens. A node that is
    /// there but not yet readable (udev applies permissions just after the
    /// node appears) is tried again next time.
    private func reconnect() -> Connection? {
        var refusal: String?
        for candidate in sameController() {
            do {
                let connection = try connect(candidate.path)
                // Counted before the interruption clears (the text's lock orders the two), so
                // whoever sees it cleared sees the reconnection too.
                reconnections.wrappingAdd(1, ordering: .relaxed)
                thread.setInterruption(nil)
                return connection
            } catch {
                // Say why, so a node that stays unreadable (no udev rule) is not a silent wait.
                refusal = "\(shortName) is back as \(candidate.path) but cannot be opened: \(error.withSetupAdvice)"
            }
        }
        thread.setInterruption(refusal ?? disconnectedText)
        return nil
    }

    /// Motion nodes of this controller present now.
    private func sameController() -> [InputNode] {
        SensorDiscovery.inputNodes(sysfs: sysfs).filter { $0.isMotionSensor && isSameController($0) }
    }

    private var disconnectedText: String { "\(shortName) disconnected: waiting for it to come back" }

    /// What the player calls it, short enough for the status line: "DualSense".
    private var shortName: String { profile.kind == .other ? node.name : profile.kind.rawValue }

    /// Same `uniq` (a controller's Bluetooth address) when the node had one; else the same name.
    private func isSameController(_ other: InputNode) -> Bool {
        if let uniq = node.uniq { return other.uniq == uniq }
        return other.name == node.name
    }

}
