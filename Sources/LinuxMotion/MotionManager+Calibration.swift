// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices

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
    ///
    /// - Parameter duration: how long the board must lie still; at least a
    ///   second. The board has that long plus two seconds to settle.
    /// - Returns: the bias (rad/s, board frame) and its uncertainty.
    /// - Throws: ``MotionError/alreadyActive`` while updates run (stop them
    ///   first: the calibration reads the sensor itself);
    ///   ``MotionError/unavailable(_:)`` when the sensor cannot be had;
    ///   ``MotionError/calibrationRefused(_:)`` when the board moved, the
    ///   sensor has no gyroscope, or the task was cancelled;
    ///   ``MotionError/calibrationNotSaved(_:)`` when the file cannot be written.
    @discardableResult
    public func calibrateGyroscope(duration: Duration = .seconds(3)) async throws(MotionError) -> GyroscopeCalibration {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        precondition(seconds >= 1, "a gyroscope calibration needs at least a second of stillness")
        guard !isActive else { throw .alreadyActive }
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
        var finder = StillStretchFinder()
        let start = ContinuousClock.now
        let deadline = start + duration + .seconds(2)
        while true {
            _ = source.samples.drain { finder.add($0) }
            if let failure = source.failure { throw .sensorStopped(failure) }
            if let still = finder.ongoing, still.hasRotation, still.duration >= seconds { break }
            if ContinuousClock.now >= deadline { break }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw .calibrationRefused("the gyroscope calibration was cancelled")
            }
        }
        finder.finish()
        let result: GyroscopeCalibration
        switch GyroscopeCalibration.measure(finder.stretches, measuringTime: seconds) {
        case .success(let measured): result = measured
        case .failure(let refusal): throw .calibrationRefused("\(refusal)")
        }
        try keep(.gyroscope(result), source: source)
        return result
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
    }
}
