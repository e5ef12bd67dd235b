// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import MotionCore
import IIO
import Realtime
import Handoff
import LibC

/// An IIO IMU (one device, or a split chip's accelerometer and gyroscope)
/// read by buffered capture on a thread of its own.
///
/// `start()` sets the timestamp clock to monotonic, picks the rate and the
/// trigger (`IIOCaptureSetup`), enables the accel, anglvel and timestamp scan
/// elements and creates the buffers; the thread then waits in the buffers
/// (`IIOBuffer.waitForAny`) and converts every scan the moment it arrives
/// (latency one wake-up, whatever the buffer size or rate). `stop()` cancels
/// the wait, destroys the buffers (libiio disables them) and puts back every
/// attribute it changed.
///
/// A split chip produces accel-only and gyro-only samples, each with its own
/// hardware timestamp: pairing them would invent a common instant that neither
/// was measured at.
///
/// ## A trigger that stays silent
///
/// Raspberry Pi's `i2c-sensor` overlay gives an MPU-6050 or MPU-9250 an
/// interrupt on GPIO4 whether or not a wire carries it, so on the commonest
/// four-wire breakout the driver makes a buffer and a data-ready trigger
/// that never fires. When no scan comes for `silenceBound` (a second, or ten
/// sample periods when that is longer), at the start or later (a loose INT
/// wire), and the device's `in_*_raw` values read, the thread switches the
/// buffers off and goes on polling those values (`IIOPoller`) at the rate
/// asked, saying so in `notice`. Only a device that neither captures nor
/// polls ends, after `noDataTimeout`, with the reason.
///
/// A floating interrupt pin may instead fire at random: every scan the
/// driver stamps is taken while its time moves forward, so bursts only
/// bring samples closer together, and scans whose time does not move
/// forward are refused and counted (`rejectedCount`).
///
/// Reads that fail with an error a glitching bus gives are retried
/// (`TransientFaults`); a device that keeps failing for a second ends the source.
public final class IIOMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `captures` belongs to start/stop and, between them,
    // to the sensor thread; `thread` is synchronised.

    public let imu: IIOIMU
    public let samples: SPSCRing<MotionSample>
    public private(set) var rate: Double
    public let displayName: String
    /// How long without a single scan before the source gives up and says why.
    public let noDataTimeout: Duration
    /// How long without a scan before a local device is polled instead;
    /// nil: a second, or ten sample periods when that is longer.
    public let silenceBound: Duration?
    /// How often a silent device is looked at: gone? no data for too long?
    /// `stop()` does not wait for it: it wakes the thread at once.
    public let checkInterval: Duration

    private struct Capture {
        let setup: IIOCaptureSetup
        let buffer: IIOBuffer
        let converter: IIOScanConverter
    }

    private var captures: [Capture] = []
    private let thread: SensorThread

    private let wantedRate: Double
    private let configfsRoot: String

    /// - Parameters:
    ///   - rate: samples per second wanted; the nearest rate the driver offers at or above it is used.
    ///   - mount: the mount matrix to apply; nil looks it up as iio-sensor-proxy
    ///     does: udev's `ACCEL_MOUNT_MATRIX` for the node, then the device's own
    ///     (`mount_matrix`, `in_accel_mount_matrix`, `in_mount_matrix`), else identity.
    ///   - udevDirectory: where udev keeps its device records.
    ///   - acceleration: the accelerometer, or the chip's own gravity (`--chip-fusion`).
    ///   - calibrations: where this user's calibration files are: the mount
    ///     matrix they set (before udev's) and the accelerometer's
    ///     calibration come from there. nil: none.
    public init(imu: IIOIMU, rate: Double = 200, mount: MountMatrix? = nil,
                acceleration: IIOAccelerationChannels = .accelerometer, calibrations: CalibrationStore? = nil,
                noDataTimeout: Duration = .seconds(2), silenceBound: Duration? = nil, checkInterval: Duration = .milliseconds(250),
                ringCapacity: Int = defaultSampleRingCapacity,
                configfsRoot: String = HrtimerTrigger.defaultConfigfsRoot,
                udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.udevDirectory = udevDirectory
        self.imu = imu
        self.wantedRate = rate
        self.rate = rate
        self.noDataTimeout = noDataTimeout
        self.silenceBound = silenceBound
        self.checkInterval = checkInterval
        self.configfsRoot = configfsRoot
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        self.thread = SensorThread(samples: samples)
        self.acceleration = acceleration
        self.displayName = imu.placeDescription + (acceleration == .chipGravity ? Self.chipFusionSuffix : "")
        self.mountOverride = mount
        self.calibrations = calibrations
    }

    /// What the player's line adds when the chip's gravity tilts the board.
    public static let chipFusionSuffix = " (the chip's own fusion)"

    /// Where the tilt comes from.
    public let acceleration: IIOAccelerationChannels

    private let mountOverride: MountMatrix?
    private let calibrations: CalibrationStore?
    /// This user's correction of the chip, read from `calibrations` at start.
    private var userCorrection: ChipCorrection?
    private let udevDirectory: String

    public var calibrationIdentity: String? { imu.identity }

    /// From the converters `start()` made (accelerometer and gyroscope may be on two devices). Not for the sensor thread.
    public var scales: SensorScales? {
        guard !captures.isEmpty else { return nil }
        let accel = captures.lazy.compactMap(\.converter.accel).first
        let gyro = captures.lazy.compactMap(\.converter.gyro).first
        let magn = captures.lazy.compactMap(\.converter.magn).first
        return SensorScales(accel: accel?.scale.x, gyro: gyro?.scale.x, hasGyroscope: gyro != nil, mount: captures[0].converter.mount,
                            magnetometer: magn?.scale.x, accelerometer: captures[0].converter.accelerometer)
    }

    /// Its rejected count: scans refused as impossible (time not moving
    /// forward, a value beyond any sensor's range), counted, not passed on.
    public var health: SourceHealth { thread.health }
    public var statusChanges: UInt64 { thread.statusChanges }

    /// How long a capture at `rate` may go without a scan before it is
    /// polled instead: a second, or ten sample periods when that is longer.
    public static func silenceBound(rate: Double) -> Duration {
        rate >= 10 ? .seconds(1) : .nanoseconds(Int64((10e9 / max(rate, 0.01)).rounded()))
    }

    public func start() throws {
        guard !thread.hasStarted else { return }
        thread.prepareStart()
        if let advice = imu.noAccelerometerAdvice ?? imu.noBufferAdvice { throw SourceError(description: advice) }
        if acceleration == .chipGravity, let refusal = imu.chipFusionRefusal { throw SourceError(description: refusal) }
        userCorrection = calibrations?.chipCorrection(for: imu.identity)
        do {
            for device in imu.devices { captures.append(try prepare(device)) }
        } catch {
            release()
            throw error.withSetupAdvice
        }
        rate = captures.compactMap(\.setup.rate).max() ?? wantedRate
        do {
            try thread.start(name: "tiltmaze-iio") { [self] in run() }
        } catch {
            release()
            throw error
        }
    }

    public func stop() {
        guard thread.stop(wake: { for capture in captures { capture.buffer.cancel() } }) else { return }
        release()
    }

    /// Destroys the buffers first (the kernel refuses attribute changes while
    /// one is enabled), then restores the attributes.
    private func release() {
        let setups = captures.map(\.setup)
        captures.removeAll()
        for setup in setups { setup.restore() }
    }

    private func prepare(_ device: IIODevice) throws(IIOError) -> Capture {
        let setup = IIOCaptureSetup(device: device)
        do {
            try setup.configure(wantedRate: wantedRate, configfsRoot: configfsRoot)
            let wanted = Self.capturedChannels(acceleration)
            for channel in device.channels where channel.isScanElement && !channel.isOutput {
                if wanted.contains(channel.id) { channel.enable() } else { channel.disable() }
            }
            let mount = mountOverride ?? MountMatrixLookup.iio(device, udevDirectory: udevDirectory, user: userCorrection).matrix
            let buffer = try IIOBuffer(device: device, sampleCount: Self.bufferSamples(rate: setup.rate ?? wantedRate,
                                                                                      local: device.context.isLocal))
            let converter = try IIOScanConverter(device: device, layout: buffer.layout, mount: mount, acceleration: acceleration,
                                                 accelerometer: userCorrection?.accelerometer ?? .none)
            return Capture(setup: setup, buffer: buffer, converter: converter)
        } catch {
            setup.restore()
            throw error
        }
    }

    /// The scan elements capture enables: the axes `IIOScanConverter` reads
    /// and the timestamp. Not every accel channel: a BNO055 also has linear
    /// acceleration (`accel_linear_x`…), which would only lengthen each scan,
    /// and its driver refuses to start a buffer with it outside fusion mode.
    public static func capturedChannels(_ acceleration: IIOAccelerationChannels = .accelerometer) -> Set<String> {
        Set(acceleration.channelIDs + ["anglvel_x", "anglvel_y", "anglvel_z", "magn_x", "magn_y", "magn_z", "timestamp"])
    }

    /// Scans per kernel buffer. Locally, reads return whatever has arrived
    /// (non-blocking, woken by poll at a watermark of one scan: `IIOBuffer`),
    /// so a roomy 64 costs no latency. Over
    /// the network libiio can only refill blocking, which waits for the
    /// whole buffer: it holds 20 ms of scans at the rate, so no sample
    /// waits longer than that for its companions.
    public static func bufferSamples(rate: Double, local: Bool) -> Int {
        local ? 64 : max(1, min(64, Int((rate * latencyBudget).rounded(.down))))
    }

    /// The longest a sample may wait in a network buffer, s.
    public static let latencyBudget = 0.02

    // MARK: The sensor thread

    /// Sleeps in one wait over every buffer (`IIOBuffer.waitForAny`: each
    /// one's node and wake-up pipe), so neither half of a split chip waits on
    /// the other and `stop()`, which cancels the buffers, ends the wait at
    /// once. Backends without a poll descriptor (network) take turns
    /// waiting inside each buffer instead.
    ///
    /// `captures` is not mutated while this runs; the plausibility judges are
    /// this thread's own.
    private func run() {
        let buffers = captures.map(\.buffer)
        var judges = [SamplePlausibility](repeating: SamplePlausibility(), count: captures.count)
        var repeats = [RepeatedReadingFilter](repeating: RepeatedReadingFilter(), count: captures.count)
        let pollable = buffers.allSatisfy(\.isPollable)
        let slice = checkInterval
        let limit = noDataTimeout.nanoseconds
        let silence = min((silenceBound ?? Self.silenceBound(rate: rate)).nanoseconds, limit)
        var everGotData = false
        // Each capture's reads are retried on their own (a retry of the whole
        // pass would wait again), so the pass is not.
        thread.readLoop(
            .init(slice: slice.nanoseconds, switchAfter: silence, failAfter: limit, retriesPasses: false),
            keepsFailing: { error in "\(displayName) keeps failing: \(error) for \(Duration.nanoseconds(TransientFaults.giveUpAfter))" },
            failed: { error in error.isDeviceGone ? goneText(error) : "\(error.withSetupAdvice)" },
            silent: {
                let trigger = captures.compactMap(\.setup.triggerName).first.map { "trigger \($0)" } ?? "its hardware FIFO"
                return "no data from \(displayName) for \(noDataTimeout) (paced by \(trigger)): is the interrupt line wired and the driver bound? See hardware.md"
            },
            switchOver: {
                guard let poller = pollerInstead() else { return false }
                thread.setNotice(Self.pollingNotice(pacing: captures.first?.setup.pacing, afterData: everGotData))
                let rate = min(wantedRate, captures.compactMap(\.setup.rate).min() ?? wantedRate)
                poller.run(rate: rate, thread: thread, judge: &judges[0])
                return true
            }
        ) { () throws(IIOError) -> SensorThread.Pass in
            var gotData = false
            if pollable {
                switch try IIOBuffer.waitForAny(buffers, timeout: slice) {
                case .cancelled: return .ended
                case .timedOut: break
                case .ready:
                    for i in captures.indices {
                        let got = try thread.retrying { () throws(IIOError) in
                            try drain(i, waitingUpTo: .zero, judge: &judges[i], repeats: &repeats[i])
                        }
                        guard let got else { return .ended }
                        gotData = gotData || got
                    }
                }
            } else {
                let wait: Duration = captures.count == 1 ? slice : .milliseconds(2)
                for i in captures.indices {
                    let got = try thread.retrying { () throws(IIOError) in
                        try drain(i, waitingUpTo: wait, judge: &judges[i], repeats: &repeats[i])
                    }
                    guard let got else { return .ended }
                    gotData = gotData || got
                }
            }
            everGotData = everGotData || gotData
            return gotData ? .data : .nothing
        }
    }

    /// A poller for this IMU with the buffers switched off, if its raw
    /// values read now; nil, with the buffers on again, if they do not (a
    /// remote device, a driver without raw attributes, a read that fails).
    /// Allocates: once, when capture has gone silent.
    private func pollerInstead() -> IIOPoller? {
        guard imu.devices.allSatisfy(\.context.isLocal) else { return nil }
        for capture in captures { try? capture.buffer.setEnabled(false) }
        do {
            let poller = try IIOPoller(imu: imu, acceleration: acceleration, mount: captures[0].converter.mount,
                                       udevDirectory: udevDirectory, user: userCorrection)
            _ = try thread.retrying { () throws(IIOError) in try poller.read(withField: true) }
            return poller
        } catch {
            for capture in captures { try? capture.buffer.setEnabled(true) }
            return nil
        }
    }

    /// What the player is told when a silent capture is polled instead.
    static func pollingNotice(pacing: TriggerChoice?, afterData: Bool) -> String {
        let what = afterData ? "stopped firing" : "never fired"
        switch pacing {
        case .dataReady?:
            return afterData ? "the data-ready interrupt stopped firing (is the INT wire loose?): polling instead"
                             : "the data-ready interrupt never fired (is INT wired to GPIO4, or `int_pin=` set?): polling instead"
        case .existingHrtimer(let name)?, .createHrtimer(let name)?:
            return "hrtimer trigger \(name) \(what): polling instead"
        case .none?, nil:
            return "the FIFO interrupt \(what) (is INT wired to the GPIO its overlay names?): polling instead"
        }
    }

    /// Reads what capture `i` has (waiting up to `timeout`), converts, checks
    /// and pushes it. Returns whether scans came, or nil when capture was cancelled.
    private func drain(_ i: Int, waitingUpTo timeout: Duration, judge: inout SamplePlausibility,
                       repeats: inout RepeatedReadingFilter) throws(IIOError) -> Bool? {
        let scans: IIOScans
        switch try captures[i].buffer.read(waitingUpTo: timeout) {
        case .cancelled: return nil
        case .nothingYet: return false
        case .scans(let got): scans = got
        }
        let now = MonotonicClock.now()
        let converter = captures[i].converter
        for scan in scans {
            var sample = converter.sample(from: scan, fallbackTime: now)
            if sample.hasMagneticField, !repeats.isNew(sample.magneticField) { sample.fields.remove(.magneticField) }
            thread.offer(sample, judge: &judge)
        }
        return true
    }

    /// A device that was unplugged (or whose driver was unbound): its node
    /// hangs up, or stays open but silent while its sysfs directory goes.
    private func goneText(_ error: IIOError) -> String {
        let device = captures.first { error.path.hasPrefix($0.setup.device.devicePath) }?.setup.device ?? imu.devices[0]
        return "\(device.id) (\(device.name ?? "IIO device")) is gone: unplugged, or its driver was unbound (\(device.sysfsPath) no longer exists)"
    }
}
