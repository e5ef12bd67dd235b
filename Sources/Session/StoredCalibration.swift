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
    /// False when the config directory was found unwritable at start (and
    /// the user told then): no save is tried, so none fails at the end.
    public let mayWrite: Bool

    /// Reads the calibration of `source` from the store `environment`
    /// names; says through `report` what was wrong with a bad file.
    /// With `mayWrite` false nothing is ever written.
    public init(for source: any MotionSource, environment: [String: String], mayWrite: Bool = true,
                report: @escaping (String) -> Void) {
        store = CalibrationStore.standard(environment: environment)
        identity = source.calibrationIdentity
        self.mayWrite = mayWrite
        self.report = report
        if let store, let identity {
            loaded = store.load(identity)
        } else {
            loaded = CalibrationStore.Loaded(calibration: .defaults, fromFile: false, problem: nil, maySave: false)
        }
        if let problem = loaded.problem { report(problem) }
    }

    /// Whether the session's calibration at its end, `state`, differs from
    /// what was loaded (a first file of the defaults, which a save would
    /// write for a bias learnt as zero, is no change).
    public func wouldChange(to state: CalibrationState) -> Bool {
        loaded.changed(to: state).map { $0 != loaded.calibration } ?? false
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
        guard mayWrite, let store, let identity else { return nil }
        switch store.save(updated, for: identity) {
        case .success(let path): return path
        case .failure(let error):
            report("\(error)")
            return nil
        }
    }
}
