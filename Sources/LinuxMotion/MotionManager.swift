import Handoff
import MotionCore
import MotionDevices
import Realtime
import Synchronization

/// The motion of whatever IMU or controller is attached, as CoreMotion's
/// `CMMotionManager` gives it on iOS: found as `tiltmaze --source auto`
/// finds it (or as asked), read on a real-time thread of its own, fused,
/// and handed to you sample by sample.
///
/// ```swift
/// let manager = MotionManager()            // the best sensor found, else the simulated board
/// for try await motion in try manager.deviceMotionUpdates() {
///     print(motion.gravity)
/// }
/// ```
///
/// Two ways to receive: ``deviceMotionUpdates(bufferLimit:threadName:)`` as
/// an `AsyncThrowingStream`, or ``startDeviceMotionUpdates(threadName:handler:completion:)``,
/// whose handler runs on the manager's own thread for each sample (for
/// real-time code that keeps off Swift's cooperative pool; it allocates nothing per sample).
///
/// The manager is not safe to start and stop from two threads at once; its
/// counters and ``changeReference(_:)`` may be used from any thread.
public final class MotionManager: @unchecked Sendable {
    // @unchecked Sendable: `source`, `thread` and `sensorDescription` change
    // only in start and stop, which the caller does not overlap; what the
    // update thread shares is atomic or a `LatestValue`.

    /// What to read when nothing was given: `.auto`, `.iio(name)`, `.evdev(path)`, `.replay(file)`, `.sim`.
    public let request: SensorRequest?
    /// Samples per second asked of the sensor; the driver gives the nearest it offers at or above it.
    public let requestedRate: Double
    private let iioURI: String?
    private let given: (source: any MotionSource, description: String)?
    /// Where each device's neutral and gyroscope bias are kept; nil keeps nothing.
    public let calibrationStore: CalibrationStore?
    private var loaded: CalibrationStore.Loaded?
    private var identity: String?
    private let calibrationNow = LatestValue(CalibrationState())

    private var source: (any MotionSource)?
    private var thread: PeriodicThread?
    private let referenceChanges = LatestValue<ReferenceChange>(.none)
    private let counters = Counters()

    /// The update thread wakes this often and drains every sample waiting:
    /// often enough that a 1 kHz sensor's samples arrive in small batches.
    static let pollPeriod: Int64 = 2_000_000

    /// A manager for the sensor `request` names.
    /// - Parameters:
    ///   - rate: samples per second to ask for (10 to 5000).
    ///   - iioURI: another machine's IIO devices through its `iiod`
    ///     (`ip:raspberrypi.local`), as libiio's tools take `-u`.
    ///   - calibrationStore: where the device's neutral and gyroscope bias
    ///     are read at start and saved by ``saveCalibration()``; by default
    ///     where `tiltmaze calibrate` keeps them, so both share them. Nil keeps nothing.
    public init(source request: SensorRequest = .auto, rate: Double = 100, iioURI: String? = nil,
                calibrationStore: CalibrationStore? = .forThisUser) {
        precondition((10 ... 5_000).contains(rate), "the rate must be between 10 and 5000 samples per second")
        self.request = request
        self.requestedRate = rate
        self.iioURI = iioURI
        self.given = nil
        self.calibrationStore = calibrationStore
    }

    /// A manager for a source made elsewhere (started and stopped by the manager).
    public init(source: any MotionSource, description: String, calibrationStore: CalibrationStore? = .forThisUser) {
        self.request = nil
        self.requestedRate = source.rate
        self.iioURI = nil
        self.given = (source, description)
        self.calibrationStore = calibrationStore
    }

    deinit { stop() }

    /// Which sensor is read and why it was chosen ("mpu6050 on iio:device0",
    /// "simulated board (no motion sensor found: …)"); nil until started.
    public private(set) var sensorDescription: String?
    /// The rate the sensor runs at, once started: what the driver gave.
    public var obtainedRate: Double? { source?.rate }
    /// Whether updates are running.
    public var isActive: Bool { thread != nil }
    /// Samples read since the start.
    public var samplesRead: Int { counters.read.load(ordering: .relaxed) }
    /// Updates the async stream dropped because its consumer fell more than
    /// its buffer behind (the oldest go first).
    public var droppedUpdates: Int { counters.dropped.load(ordering: .relaxed) }
    /// Why no samples come for now, while the sensor waits to come back (a
    /// controller switched off or out of range); nil when all is well.
    public var interruption: String? { source?.interruption }

    /// What was wrong with the device's stored calibration, if anything (a
    /// bad file, set aside; the updates then start from level).
    public var calibrationProblem: String? { loaded?.problem }

    /// The neutral and the gyroscope's bias as the update thread has them now. Any thread.
    public var calibration: CalibrationState { calibrationNow.read().value }

    /// Saves the device's neutral and (once learnt) its gyroscope's bias,
    /// for the next run and for `tiltmaze` with the same sensor. Returns the
    /// file written, or nil when there is nothing to keep: no store, a
    /// recording (it is no device), or nothing changed.
    @discardableResult
    public func saveCalibration() throws(MotionError) -> String? {
        guard let calibrationStore, let identity, let loaded, loaded.maySave else { return nil }
        let now = calibration
        var updated = loaded.calibration
        updated.reference = now.reference
        if now.hasLearntGyroBias { updated.gyroBias = now.gyroBias }
        guard updated != loaded.calibration || (!loaded.fromFile && now.hasLearntGyroBias) else { return nil }
        switch calibrationStore.save(updated, for: identity) {
        case .success(let path):
            self.loaded = CalibrationStore.Loaded(calibration: updated, fromFile: true, problem: nil, maySave: true)
            return path
        case .failure(let error):
            throw .calibrationNotSaved(error.description)
        }
    }

    /// Takes the board's pose now as its neutral (`.captureCurrent`), goes
    /// back to level (`.level`), or sets one; the attitude is then reported
    /// relative to it. Any thread; taken on the next sample (a neutral
    /// captured before the first sample is level: there is no gravity yet).
    /// ``saveCalibration()`` keeps it for the device.
    public func changeReference(_ change: ReferenceChange) { referenceChanges.publish(change) }

    /// Starts the sensor and a thread named `threadName` that calls `handler`
    /// with each sample's motion, in order, on that thread; `completion`
    /// runs once on it if the updates end by themselves: with the error when
    /// the sensor stopped, with nil when a recording ran out.
    /// - Parameter estimator: the attitude filter to start from; nil starts
    ///   from the device's stored calibration (its neutral and gyroscope bias), else level.
    public func startDeviceMotionUpdates(threadName: String = "motion-updates", estimator: TiltEstimator? = nil,
                                         handler: @escaping @Sendable (DeviceMotion) -> Void,
                                         completion: @escaping @Sendable (MotionError?) -> Void = { _ in }) throws(MotionError) {
        guard thread == nil else { throw .alreadyActive }
        let chosen = try makeSource()
        do {
            try chosen.source.start()
        } catch {
            throw .unavailable("\(chosen.description): \(error)")
        }
        let source = chosen.source
        identity = source.calibrationIdentity
        loaded = identity.flatMap { identity in calibrationStore.map { $0.load(identity) } }
        let stored = loaded?.calibration ?? .defaults
        let state = UpdateState(estimator: estimator ?? TiltEstimator(reference: stored.reference, gyroBias: stored.gyroBias))
        calibrationNow.publish(CalibrationState(state.processor.estimator))
        let (references, counters, calibrationNow) = (referenceChanges, counters, calibrationNow)
        let thread = PeriodicThread(name: threadName, period: Self.pollPeriod, maxCatchUp: 1)
        do {
            try thread.start { _ in
                guard !state.ended else { return }
                let (change, isNew) = references.read()
                if isNew { state.processor.changeReference(change) }
                let taken = source.samples.drain { sample in
                    let (motion, shake) = state.processor.add(sample)
                    handler(DeviceMotion(sample, motion: motion, shake: shake))
                }
                counters.read.wrappingAdd(taken, ordering: .relaxed)
                if taken > 0 || isNew { calibrationNow.publish(CalibrationState(state.processor.estimator)) }
                let status = source.statusChanges
                guard status != state.statusSeen else { return }
                if let failure = source.failure {
                    state.ended = true
                    completion(.sensorStopped(failure))
                } else if source.hasEnded {
                    // Its last samples may have come after this drain: end on the tick that finds none.
                    guard source.samples.isEmpty else { return }
                    state.ended = true
                    completion(nil)
                }
                state.statusSeen = status
            }
        } catch {
            source.stop()
            throw .unavailable("cannot start the thread \(threadName): \(error)")
        }
        self.source = source
        self.thread = thread
        sensorDescription = chosen.description
    }

    /// The motion of each sample as an asynchronous sequence, read on a
    /// thread of the manager's; the sequence ends with `MotionError` when
    /// the sensor stops, and when a recording runs out. Leaving the loop stops the updates.
    ///
    /// A consumer slower than the sensor gets the newest `bufferLimit`
    /// values: older ones are dropped and counted in ``droppedUpdates``;
    /// the sensor's thread never waits for the consumer.
    public func deviceMotionUpdates(bufferLimit: Int = 256, threadName: String = "motion-updates")
        throws(MotionError) -> AsyncThrowingStream<DeviceMotion, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DeviceMotion, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(max(bufferLimit, 1)))
        let counters = counters
        try startDeviceMotionUpdates(threadName: threadName, handler: { motion in
            if case .dropped = continuation.yield(motion) { counters.dropped.wrappingAdd(1, ordering: .relaxed) }
        }, completion: { error in
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        })
        continuation.onTermination = { [weak self] termination in
            // A consumer that left the loop: stop reading, off the update
            // thread (stopping joins it, which it cannot do itself).
            guard case .cancelled = termination, let self else { return }
            Task.detached { self.stop() }
        }
        return stream
    }

    /// Stops the updates and the sensor, and waits for the thread. Safe to call more than once.
    public func stop() {
        thread?.stop()
        thread = nil
        source?.stop()
        source = nil
    }

    private func makeSource() throws(MotionError) -> ChosenSource {
        // The source is made anew on each start (a device may have come or gone).
        if let given { return ChosenSource(source: given.source, description: given.description) }
        do {
            return try (request ?? .auto).makeSource(rate: requestedRate, iioURI: iioURI)
        } catch {
            throw .unavailable("\(error)")
        }
    }
}

/// What the update thread keeps between wake-ups; only it touches them once started.
private final class UpdateState: @unchecked Sendable {
    var processor: MotionProcessor
    var ended = false
    var statusSeen: UInt64?

    init(estimator: TiltEstimator) {
        processor = MotionProcessor(estimator: estimator)
    }
}

/// Counters the update thread keeps and any thread reads.
private final class Counters: Sendable {
    let read = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
}
