// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices
import Realtime
import Synchronization
import SystemCalls

extension MotionManager {
    /// Measures the gyroscope's bias now, as `tiltmaze calibrate --gyroscope`
    /// does: put the board down and keep it still. The sensor is read until
    /// it has lain still for `duration` (the board is called still half a
    /// second after it stops), and the mean rotation rate over that time is
    /// the bias, with its uncertainty. It is saved for the device (when the
    /// manager has a ``calibrationStore``), and the next updates start from it.
    ///
    /// Android asks a calibrated gyroscope for a stationary error below
    /// 0.002 rad/s within 5 s of stillness; the default 3 s meets that on
    /// real IMU noise with a wide margin (docs/sensors.md, "Calibrating on demand").
    /// The samples are read on an OS thread of the manager's own, as the
    /// updates are; the task only waits for the result.
    ///
    /// - Parameter duration: how long the board must lie still; at least a
    ///   second. The board has that long plus two seconds of the sensor's
    ///   samples to settle (sample time, so a busy machine does not cut it short).
    /// - Returns: the bias (rad/s, board frame) and its uncertainty.
    /// - Throws: ``MotionError/alreadyActive`` while updates run (stop them
    ///   first: the calibration reads the sensor itself);
    ///   ``MotionError/unavailable(_:)`` when the sensor cannot be had;
    ///   ``MotionError/calibrationRefused(_:)`` when the board moved, the
    ///   sensor has no gyroscope, the duration is under a second, or the task was cancelled;
    ///   ``MotionError/calibrationNotSaved(_:)`` when the file cannot be written.
    @discardableResult
    public func calibrateGyroscope(duration: Duration = .seconds(3)) async throws(MotionError) -> GyroscopeCalibration {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        guard seconds >= 1 else { throw .calibrationRefused("a gyroscope calibration needs at least a second of stillness") }
        // Updates that ended by themselves (a recording ran out) leave nothing running: as `startUpdates` does.
        if isActive, updatesHaveEnded { stop() }
        guard !isActive, calibrating.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .alreadyActive
        }
        defer { calibrating.store(false, ordering: .releasing) }
        let chosen = try makeSource()
        let source = chosen.source
        do {
            try source.start()
        } catch {
            throw .unavailable("\(chosen.description): \(error)")
        }
        defer { source.stop() }
        if source.scales?.hasGyroscope == false {
            throw .calibrationRefused("\(chosen.description) has no gyroscope")
        }
        let run = CalibrationRun()
        let description = chosen.description
        let measured: Result<GyroscopeCalibration, MotionError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do {
                    run.thread = try OSThread(name: "motion-calibrate") {
                        continuation.resume(returning: Self.measureGyroscope(source, seconds: seconds, description: description,
                                                                             cancelled: run))
                    }
                } catch {
                    continuation.resume(returning: .failure(.unavailable("cannot start the thread motion-calibrate: \(error)")))
                }
            }
        } onCancel: {
            run.cancelled.store(true, ordering: .relaxed)
        }
        // Its last act was to hand over the result: the source may be stopped once it has ended.
        run.thread?.join()
        let result = try measured.get()
        try keep(.gyroscope(result), source: source)
        return result
    }

    /// Reads `source` until it has lain still for `seconds` (or two seconds
    /// more of its samples have passed without), on the calling thread.
    private static func measureGyroscope(_ source: any MotionSource, seconds: Double, description: String,
                                         cancelled run: CalibrationRun) -> Result<GyroscopeCalibration, MotionError> {
        var finder = StillStretchFinder()
        var first: Int64?, last: Int64 = 0
        // Judged in the samples' time; the clock only guards against a sensor gone silent.
        let silence = MonotonicClock.now() + Int64((seconds + 60) * 1e9)
        var reader = SampleReader(source)
        reading: while true {
            let stop = reader.read(until: silence) { sample in
                finder.add(sample)
                if first == nil { first = sample.timestamp }
                last = sample.timestamp
            }
            switch stop {
            case .failed(let failure): return .failure(.sensorStopped(failure))
            case .deadline:
                return .failure(.sensorStopped("\(description) gave too few samples to calibrate (\(first == nil ? "none" : "a few"))"))
            case .ended: break reading
            case nil, .interrupted: break   // woken: within SampleReader.statusPeriod, so a cancellation is seen soon
            }
            if run.cancelled.load(ordering: .relaxed) { return .failure(.calibrationRefused("the gyroscope calibration was cancelled")) }
            if let still = finder.ongoing, still.hasRotation, still.duration >= seconds { break }
            if let first, Double(last - first) / 1e9 >= seconds + 2 { break }
        }
        finder.finish()
        return GyroscopeCalibration.measure(finder.stretches, measuringTime: seconds)
            .mapError { .calibrationRefused("\($0)") }
    }

    /// The thread a calibration reads on, and whether its task was cancelled.
    final class CalibrationRun: @unchecked Sendable {
        // @unchecked Sendable: `thread` is set before the thread it names can
        // finish and read after the result came back; `cancelled` is atomic.
        var thread: OSThread?
        let cancelled = Atomic<Bool>(false)
    }

    /// Saves `outcome` in the source's device calibration, if there is a store and a device.
    private func keep(_ outcome: OnDemandCalibration.Outcome, source: any MotionSource) throws(MotionError) {
        guard let calibrationStore, let identity = source.calibrationIdentity else { return }
        let loaded = calibrationStore.load(identity)
        guard loaded.maySave else { return }
        let updated = OnDemandCalibration.kept(outcome, in: loaded.calibration, delivery: OnDemandCalibration.Delivery(source.scales))
        if case .failure(let error) = calibrationStore.save(updated, for: identity) {
            throw .calibrationNotSaved(error.description)
        }
        // What `saveCalibration()` compares with from now on: not the file as the last start read it.
        self.loaded = CalibrationStore.Loaded(calibration: updated, fromFile: true, problem: nil, maySave: true)
    }
}
