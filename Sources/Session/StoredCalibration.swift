// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices

/// The calibration of the sensor a session uses: read at start from the
/// store, the estimator made from it, and written back at the end when the
/// player changed it or the gyroscope's bias was learnt.
public struct StoredCalibration {
    public let store: CalibrationStore?
    public let identity: String?
    package let loaded: CalibrationStore.Loaded
    /// Where a problem goes (a bad file, a failed save): the tool's standard error.
    private let report: (String) -> Void

    /// Reads the calibration of `source` from the store `environment`
    /// names; says through `report` what was wrong with a bad file.
    public init(for source: any MotionSource, environment: [String: String], report: @escaping (String) -> Void) {
        store = CalibrationStore.standard(environment: environment)
        identity = source.calibrationIdentity
        self.report = report
        if let store, let identity {
            loaded = store.load(identity)
        } else {
            loaded = CalibrationStore.Loaded(calibration: .defaults, fromFile: false, problem: nil, maySave: false)
        }
        if let problem = loaded.problem { report(problem) }
    }

    /// The estimator a session with this sensor starts from.
    public func estimator() -> TiltEstimator { loaded.calibration.estimator }

    /// Saves a new compass calibration beside the rest; a failure is reported.
    /// - Returns: the file written, if any.
    public func save(magnetometer: MagnetometerCalibration) -> String? {
        guard loaded.maySave else { return nil }
        var updated = loaded.calibration
        updated.magnetometer = magnetometer
        return write(updated)
    }

    /// Saves what changed of `state` (the session's calibration at its end):
    /// the neutral, the gyroscope's bias once learnt, the magnetometer
    /// refined while playing. A failure is reported, not thrown: the
    /// session is over and went well.
    /// - Returns: the file written, if any.
    @discardableResult
    public func save(_ state: CalibrationState) -> String? {
        loaded.changed(to: state).flatMap(write)
    }

    /// Writes `updated` as this sensor's calibration; a failure is reported.
    private func write(_ updated: DeviceCalibration) -> String? {
        guard let store, let identity else { return nil }
        switch store.save(updated, for: identity) {
        case .success(let path): return path
        case .failure(let error):
            report("\(error)")
            return nil
        }
    }
}
