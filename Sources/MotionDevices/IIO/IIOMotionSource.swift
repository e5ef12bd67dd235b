import MotionCore
import IIO
import Realtime
import Handoff
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An IIO IMU (one device, or a split chip's accelerometer and gyroscope)
/// read by buffered capture on a thread of its own.
///
/// `start()` sets the timestamp clock to monotonic, picks the rate and the
/// trigger (`IIOCaptureSetup`), enables the accel, anglvel and timestamp scan
/// elements and creates the buffers; the thread then sleeps in `poll` on the
/// buffers' descriptors and converts every scan the moment it arrives
/// (`IIOBuffer.readAvailable`: latency one wake-up, whatever the buffer size
/// or rate). `stop()` destroys the buffers (libiio disables them) and puts
/// back every attribute it changed.
///
/// A split chip produces accel-only and gyro-only samples, each with its own
/// hardware timestamp: pairing them would invent a common instant that neither
/// was measured at.
public final class IIOMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `captures` belongs to start/stop and, between them,
    // to the sensor thread; `running` and `failureText` are synchronised.

    public let imu: IIOIMU
    public let samples: SPSCRing<MotionSample>
    public private(set) var rate: Double
    public let displayName: String
    /// How long without a single scan before the source gives up and says why.
    public let noDataTimeout: Duration

    private struct Capture {
        let setup: IIOCaptureSetup
        let buffer: IIOBuffer
        let converter: IIOScanConverter
    }

    private var captures: [Capture] = []
    private var thread: OSThread?
    private let running = Atomic<Bool>(false)
    private let failureText = Mutex<String?>(nil)
    private let rejected = Atomic<Int>(0)

    /// Scans refused as impossible (time not moving forward, a value beyond
    /// any sensor's range): counted, not passed on. Any thread.
    public var rejectedCount: Int { rejected.load(ordering: .relaxed) }
    private let wantedRate: Double
    private let configfsRoot: String

    /// - Parameters:
    ///   - rate: samples per second wanted; the nearest rate the driver offers at or above it is used.
    ///   - mount: the mount matrix to apply; nil looks it up as iio-sensor-proxy
    ///     does: udev's `ACCEL_MOUNT_MATRIX` for the node, then the device's own
    ///     (`mount_matrix`, `in_accel_mount_matrix`, `in_mount_matrix`), else identity.
    ///   - udevDirectory: where udev keeps its device records.
    public init(imu: IIOIMU, rate: Double = 200, mount: MountMatrix? = nil,
                noDataTimeout: Duration = .seconds(2), ringCapacity: Int = defaultSampleRingCapacity,
                configfsRoot: String = HrtimerTrigger.defaultConfigfsRoot,
                udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.udevDirectory = udevDirectory
        self.imu = imu
        self.wantedRate = rate
        self.rate = rate
        self.noDataTimeout = noDataTimeout
        self.configfsRoot = configfsRoot
        self.samples = SPSCRing(capacity: ringCapacity)
        self.displayName = "\(imu.name) on \(imu.devices.map(\.id).joined(separator: " + "))"
        self.mountOverride = mount
    }

    private let mountOverride: MountMatrix?
    private let udevDirectory: String

    public var failure: String? { failureText.withLock { $0 } }

    public func start() throws {
        guard !running.load(ordering: .acquiring) else { return }
        failureText.withLock { $0 = nil }
        do {
            for device in imu.devices { captures.append(try prepare(device)) }
        } catch {
            release()
            throw error
        }
        rate = captures.compactMap(\.setup.rate).max() ?? wantedRate
        running.store(true, ordering: .releasing)
        do {
            thread = try OSThread(name: "tiltmaze-iio") { [self] in run() }
        } catch {
            running.store(false, ordering: .releasing)
            release()
            throw error
        }
    }

    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) || thread != nil else { return }
        for capture in captures { capture.buffer.cancel() }
        thread?.join()
        thread = nil
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
            for channel in device.channels where channel.isScanElement && !channel.isOutput {
                switch channel.type {
                case .accel, .anglvel, .timestamp: channel.enable()
                default: channel.disable()
                }
            }
            let mount = mountOverride ?? Self.mountMatrix(of: device, udevDirectory: udevDirectory)
            let buffer = try IIOBuffer(device: device, sampleCount: 64)
            let converter = try IIOScanConverter(device: device, layout: buffer.layout, mount: mount)
            return Capture(setup: setup, buffer: buffer, converter: converter)
        } catch {
            setup.restore()
            throw error
        }
    }

    /// The mount matrix by iio-sensor-proxy's precedence: udev's
    /// `ACCEL_MOUNT_MATRIX` (a hwdb entry or a local rule fixes a board the
    /// driver describes wrongly), then the driver's attributes.
    static func mountMatrix(of device: IIODevice, udevDirectory: String) -> MountMatrix {
        if let text = UdevDatabase.properties(ofCharacterDevice: device.devicePath, directory: udevDirectory)["ACCEL_MOUNT_MATRIX"],
           let m = MountMatrix(parsing: text) {
            return m
        }
        let names = Set(device.attributeNames)
        for attribute in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"] where names.contains(attribute) {
            if let m = try? device.readAttribute(attribute, as: IIOMountMatrix.self) { return MountMatrix(m) }
        }
        if let accel = device.channel(id: "accel_x"), accel.attributeNames.contains("mount_matrix"),
           let m = try? accel.readAttribute("mount_matrix", as: IIOMountMatrix.self) {
            return MountMatrix(m)
        }
        return .identity
    }

    // MARK: The sensor thread

    /// Sleeps in one `poll` on every buffer's descriptor and reads whichever
    /// is ready, so neither half of a split chip waits on the other, and an
    /// idle wait costs nothing (no timeout error is built per slice); `stop()`
    /// is noticed within a slice (100 ms). Backends without a poll descriptor
    /// (network) take turns waiting inside each buffer instead.
    ///
    /// `captures` is not mutated while this runs; the plausibility judges are
    /// this thread's own.
    private func run() {
        let slice: Int32 = 100   // milliseconds
        let limit = noDataTimeout.nanoseconds
        var judges = [SamplePlausibility](repeating: SamplePlausibility(), count: captures.count)
        let fds = UnsafeMutablePointer<pollfd>.allocate(capacity: captures.count)
        defer { fds.deallocate() }
        var pollable = true
        for i in captures.indices {
            // The first read settles the buffer's read mode (non-blocking, pollable).
            guard drain(i, timeout: .zero, judge: &judges[i]) != nil else { return }
            if let fd = try? captures[i].buffer.pollDescriptor {
                fds[i] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            } else {
                pollable = false
            }
        }
        var lastData = MonotonicClock.now()
        while running.load(ordering: .relaxed) {
            var gotData = false
            if pollable {
                let ready = poll(fds, nfds_t(captures.count), slice)
                if ready < 0 && errno != EINTR {
                    fail("\(displayName): cannot wait for scans: \(String(cString: strerror(errno)))")
                    return
                }
                for i in captures.indices where ready > 0 && fds[i].revents != 0 {
                    guard let got = drain(i, timeout: .zero, judge: &judges[i]) else { return }
                    gotData = gotData || got
                }
            } else {
                let wait: Duration = captures.count == 1 ? .milliseconds(Int64(slice)) : .milliseconds(2)
                for i in captures.indices {
                    guard let got = drain(i, timeout: wait, judge: &judges[i]) else { return }
                    gotData = gotData || got
                }
            }
            let now = MonotonicClock.now()
            if gotData {
                lastData = now
                continue
            }
            // A quiet slice: a device that was unplugged (or whose driver was
            // unbound) leaves its node open but silent; its sysfs directory goes.
            if let gone = captures.first(where: { access($0.setup.device.sysfsPath, F_OK) != 0 }) {
                fail("\(gone.setup.device.id) (\(gone.setup.device.name ?? "IIO device")) is gone: unplugged, or its driver was unbound (\(gone.setup.device.sysfsPath) no longer exists)")
                return
            }
            if now - lastData > limit {
                let trigger = captures.compactMap(\.setup.triggerName).first.map { "trigger \($0)" } ?? "its hardware FIFO"
                fail("no data from \(displayName) for \(noDataTimeout) (paced by \(trigger)): is the interrupt line wired and the driver bound? See hardware.md")
                return
            }
        }
    }

    /// Reads what capture `i` has (waiting up to `timeout`), converts, checks
    /// and pushes it. Returns whether scans came, or nil when capture must end
    /// (cancelled, or failed: then `failure` says why).
    private func drain(_ i: Int, timeout: Duration, judge: inout SamplePlausibility) -> Bool? {
        do {
            let scans = try captures[i].buffer.readAvailable(timeout: timeout)
            let now = MonotonicClock.now()
            let converter = captures[i].converter
            for scan in scans {
                let sample = converter.sample(from: scan, fallbackTime: now)
                if judge.accept(sample) {
                    samples.push(sample)
                } else {
                    rejected.wrappingAdd(1, ordering: .relaxed)
                }
            }
            return !scans.isEmpty
        } catch where error.errno == ETIMEDOUT {
            return false
        } catch where error.errno == ECANCELED {
            return nil
        } catch {
            fail("\(error)")
            return nil
        }
    }

    private func fail(_ message: String) {
        failureText.withLock { $0 = message }
        running.store(false, ordering: .releasing)
    }
}
