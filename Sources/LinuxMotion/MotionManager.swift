// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import MotionDevices
import Realtime
import Synchronization

/// The motion of whatever IMU or controller is attached, as CoreMotion's
/// `CMMotionManager` gives it on iOS: found as `tiltmaze --source auto`
/// finds it (or as asked), read on an OS thread of its own (not a task on Swift's pool), fused,
/// and handed to you sample by sample.
///
/// ```swift
/// let manager = MotionManager()            // the best sensor found, else the simulated board
/// for try await motion in try manager.deviceMotionUpdates() {
///     print(motion.gravity)
/// }
/// ```
///
/// Two ways to receive: ``deviceMotionUpdates(using:bufferLimit:threadName:)`` as
/// an `AsyncThrowingStream`, or ``startDeviceMotionUpdates(using:threadName:estimator:handler:completion:)``,
/// whose handler runs on the manager's own thread for each sample (for
/// real-time code that keeps off Swift's cooperative pool; it allocates nothing per sample).
///
/// The manager is not safe to start and stop from two threads at once; its
/// counters and ``changeReference(_:)`` may be used from any thread.
public final class MotionManager: @unchecked Sendable {
    // @unchecked Sendable: `source`, `loop` and `sensorDescription` change
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
    /// The device's calibration as read at the last start (or saved since).
    var loaded: CalibrationStore.Loaded?
    /// Set while `calibrateGyroscope` reads the sensor: no updates may start meanwhile.
    let calibrating = Atomic<Bool>(false)
    private var identity: String?
    /// The update thread's status, its calibration among it; kept across restarts.
    private let statusNow = LatestValue(MotionStatus())

    private var source: (any MotionSource)?
    /// The source when it is the simulated board, for any thread to tilt.
    private let simulatedBoard = Mutex<SimulatedSource?>(nil)
    private var loop: UpdateLoop?
    private let referenceChanges = LatestValue<ReferenceChange>(.none)
    let counts = UpdateCounts()
    private let recorder = SessionRecorder()

    /// A manager for the sensor `request` names.
    /// - Parameters:
    ///   - request: which sensor: `.auto` finds one as `tiltmaze --source auto` does.
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
    public var isActive: Bool { loop != nil }
    /// Whether the updates started last have ended by themselves (a recording ran out, a sensor stopped).
    var updatesHaveEnded: Bool { loop?.finished.load(ordering: .acquiring) ?? false }
    /// Samples read since the manager was made.
    public var samplesRead: Int { counts.read.load(ordering: .relaxed) }
    /// Updates an async sequence dropped because its consumer fell more than
    /// its buffer behind (the oldest go first), since the manager was made.
    public var droppedUpdates: Int { counts.dropped.load(ordering: .relaxed) }
    /// Why no samples come for now, while the sensor waits to come back (a
    /// controller switched off or out of range); nil when all is well.
    public var interruption: String? { source?.interruption }
    /// How the sensor reads now, when it had to change that while running
    /// (a data-ready interrupt that never fired, so it is polled instead);
    /// nil otherwise.
    public var sensorNotice: String? { source?.notice }
    /// Reads the sensor made again after an error a glitching bus gives.
    public var readRetries: Int { source?.retryCount ?? 0 }
    /// Samples the sensor lost because every try to read them failed.
    public var samplesLost: Int { source?.failedSampleCount ?? 0 }
    /// Samples the sensor made that the update thread was too late to take:
    /// its ring (`defaultSampleRingCapacity` samples) was full, so they were
    /// dropped, the newest first. Non-zero only on a machine so busy that the
    /// update thread did not run for the ring's span (2.5 s at 100 Hz).
    public var samplesOverrun: Int { source?.samples.droppedCount ?? 0 }

    /// What was wrong with the device's stored calibration, if anything (a
    /// bad file, set aside; the updates then start from level).
    public var calibrationProblem: String? { loaded?.problem }

    /// The neutral and the gyroscope's bias as the update thread has them now. Any thread.
    public var calibration: CalibrationState { statusNow.read().value.calibration }

    /// Saves the device's neutral and (once learnt) its gyroscope's bias and
    /// refined magnetometer calibration, for the next run and for
    /// `tiltmaze` with the same sensor. Returns the
    /// file written, or nil when there is nothing to keep: no store, a
    /// recording (it is no device), or nothing changed.
    @discardableResult
    public func saveCalibration() throws(MotionError) -> String? {
        guard let calibrationStore, let identity, let updated = loaded?.changed(to: calibration) else { return nil }
        switch calibrationStore.save(updated, for: identity) {
        case .success(let path):
            self.loaded = CalibrationStore.Loaded(calibration: updated, fromFile: true, problem: nil, maySave: true)
            return path
        case .failure(let error):
            throw .calibrationNotSaved(error.description)
        }
    }

    /// Takes the board's pose now as its neutral (`.captureCurrent`), goes
    /// back to level (`.level`), or sets one; ``DeviceMotion/calibratedGravity``
    /// is then measured from it (gravity and the attitude stay measured from
    /// level). Any thread, one at a time: the last change before a sample is
    /// the one taken, on that sample (a neutral captured before the first
    /// sample is level: there is no gravity yet).
    /// ``saveCalibration()`` keeps it for the device.
    public func changeReference(_ change: ReferenceChange) { referenceChanges.publish(change) }

    /// Tilts the simulated board, which `.sim` reads (and `.auto` when it
    /// finds no sensor), in radians, each within ±30°: `rightEdgeDown` turns
    /// it about its y axis (the right edge's slope, `asin(gravity.x / g)`),
    /// then `topEdgeDown` about its own x axis (alone, the top edge's slope;
    /// after a roll, `gravity.y / g` is `sin(topEdgeDown) × cos(rightEdgeDown)`).
    /// The board turns there as a hand would, at 120°/s, so the gyroscope
    /// sees the turn and gravity follows. With no hardware, this is how a
    /// program moves what it reads: from a test, a demo, or keys. Any thread.
    ///
    /// - Returns: false, doing nothing, when the updates do not run or read
    ///   another sensor.
    @discardableResult
    public func tiltSimulatedBoard(rightEdgeDown: Double, topEdgeDown: Double) -> Bool {
        simulatedBoard.withLock { board in
            board?.tilt(right: rightEdgeDown, up: topEdgeDown)
            return board != nil
        }
    }

    /// Starts the sensor and the update thread, which hands each sample
    /// with its fusion to `deliver`. Every `start…Updates` comes here.
    func startUpdates(threadName: String, estimator: TiltEstimator?, referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
                      needsGyroscope: Bool = false, coalescing: Int64 = 0,
                      deliver: @escaping UpdateLoop.Deliver,
                      completion: @escaping @Sendable (MotionError?) -> Void) throws(MotionError) {
        // Updates that ended by themselves (a recording ran out, a sensor
        // stopped) leave nothing to stop but the source: start afresh.
        if let loop, loop.finished.load(ordering: .acquiring) { stop() }
        guard loop == nil, !calibrating.load(ordering: .acquiring) else { throw .alreadyActive }
        let chosen = try makeSource()
        do {
            try chosen.source.start()
        } catch {
            throw .unavailable("\(chosen.description): \(error)")
        }
        let source = chosen.source
        if needsGyroscope, source.scales?.hasGyroscope == false {
            source.stop()
            throw .unavailable("\(chosen.description) has no gyroscope: ask for accelerometer or device-motion updates")
        }
        identity = source.calibrationIdentity
        loaded = identity.flatMap { identity in calibrationStore.map { $0.load(identity) } }
        let loop = UpdateLoop(source: source, coalescing: coalescing,
                              estimator: estimator ?? (loaded?.calibration ?? .defaults).estimator,
                              referenceFrame: referenceFrame,
                              references: referenceChanges, status: statusNow, counts: counts, recorder: recorder,
                              deliver: deliver, completion: completion)
        do {
            try loop.start(threadName: threadName)
        } catch {
            source.stop()
            throw .unavailable("cannot start the thread \(threadName): \(error)")
        }
        self.source = source
        simulatedBoard.withLock { $0 = chosen.simulatedBoard }
        self.loop = loop
        sensorDescription = chosen.description
    }

    /// Starts writing every sample the running updates read to `path`, as
    /// `tiltmaze record` does: a TiltMaze recording, to replay with
    /// `.replay(path)` or `tiltmaze play --source replay:PATH`. The samples
    /// are written on a thread of their own; the update thread only hands
    /// them over (no file I/O, no allocation). The file appears under its
    /// name, whole, at ``stopRecording()``; until then it is a temporary beside it.
    /// - Throws: ``MotionError/notRecordingWithoutUpdates`` before the updates
    ///   start, ``MotionError/alreadyActive`` while a recording runs, and
    ///   ``MotionError/recordingNotSaved(_:)`` when the file cannot be made.
    public func startRecording(to path: String) throws(MotionError) {
        guard let source, loop != nil else { throw .notRecordingWithoutUpdates }
        guard !recorder.isRecording else { throw .alreadyActive }
        try recorder.start(path: path, source: source)
    }

    /// Ends the recording and gives the file its name; nil when none runs.
    /// - Throws: ``MotionError/recordingNotSaved(_:)`` when writing failed:
    ///   nothing is then left under the name asked for.
    @discardableResult
    public func stopRecording() throws(MotionError) -> RecordingSummary? {
        try recorder.stop()
    }

    /// Why the recording that ``stop()`` ended could not be saved, if it could not.
    public private(set) var recordingProblem: String?

    /// Stops the updates and the sensor, and waits for the thread; ends a
    /// recording too (``recordingProblem`` says if it could not be saved).
    /// Safe to call more than once.
    public func stop() {
        loop?.stop()
        do {
            _ = try recorder.stop()
        } catch {
            recordingProblem = error.description
        }
        loop = nil
        simulatedBoard.withLock { $0 = nil }
        source?.stop()
        source = nil
    }

    func makeSource() throws(MotionError) -> ChosenSource {
        // The source is made anew on each start (a device may have come or gone).
        if let given {
            // A program's own source may be the simulated board, which the manager can tilt.
            if let board = given.source as? SimulatedSource { return ChosenSource(simulated: board, description: given.description) }
            return ChosenSource(source: given.source, description: given.description)
        }
        do {
            return try (request ?? .auto).makeSource(rate: requestedRate, iioURI: iioURI, calibrations: calibrationStore)
        } catch {
            throw .unavailable("\(error)")
        }
    }
}

/// What the update threads count and any thread reads, over every start.
final class UpdateCounts: Sendable {
    let read = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
}
