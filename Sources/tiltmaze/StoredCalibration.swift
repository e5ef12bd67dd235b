// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials
import MotionCore
import MotionDevices

/// The calibration of the sensor a command uses: read at start from the
/// store, written back at the end when the player changed it or the
/// gyroscope's bias was learnt.
struct StoredCalibration {
    let store: CalibrationStore?
    let identity: String?
    let loaded: CalibrationStore.Loaded

    /// Reads the calibration of `source`; says on standard error what was wrong with a bad file.
    init(for source: any MotionSource, environment: [String: String] = ProcessInfo.processInfo.environment) {
        store = CalibrationStore.standard(environment: environment)
        identity = source.calibrationIdentity
        if let store, let identity {
            loaded = store.load(identity)
        } else {
            loaded = CalibrationStore.Loaded(calibration: .defaults, fromFile: false, problem: nil, maySave: false)
        }
        if let problem = loaded.problem { printError(problem) }
    }

    var calibration: DeviceCalibration { loaded.calibration }

    /// The estimator a game with this sensor starts from.
    func estimator() -> TiltEstimator {
        TiltEstimator(reference: calibration.reference, gyroBias: calibration.gyroBias,
                      magnetometer: calibration.magnetometer ?? .none)
    }

    /// Saves a new compass calibration beside the rest; a failure is reported.
    /// - Returns: the file written, if any.
    func save(magnetometer: MagnetometerCalibration) -> String? {
        guard loaded.maySave else { return nil }
        var updated = calibration
        updated.magnetometer = magnetometer
        return write(updated)
    }

    /// Saves what changed, the magnetometer's calibration refined while
    /// playing among it; a failure is reported, not thrown: the game is
    /// over and went well.
    /// - Returns: the file written, if any.
    @discardableResult
    func save(reference: TiltReference, gyroBias: Vector3?, magnetometer: MagnetometerCalibration?) -> String? {
        loaded.changed(reference: reference, gyroBias: gyroBias, magnetometer: magnetometer).flatMap(write)
    }

    /// Writes `updated` as this sensor's calibration; a failure is reported.
    private func write(_ updated: DeviceCalibration) -> String? {
        guard let store, let identity else { return nil }
        switch store.save(updated, for: identity) {
        case .success(let path): return path
        case .failure(let error):
            printError("\(error)")
            return nil
        }
    }
}
