// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import MotionDevices
import Session
import FoundationEssentials
import struct LinuxMotion.Attitude

/// What `monitor --json` adds at the end of each line, after the fields it
/// always gave (kept byte for byte): the attitude's Euler angles as the
/// library's `Attitude` gives them (CoreMotion's axes and signs, radians)
/// and gravity relative to the player's stored neutral, as the library's
/// `DeviceMotion.calibratedGravity` is (m/s²; equal to `gravity` while the
/// neutral is level):
/// `…,"pitch":p,"roll":r,"yaw":y,"calibrated_gravity":[x,y,z]}`.
enum MonitorJSON {
    static func withAngles(_ line: String, motion: FusedMotion, neutral: TiltReference) -> String {
        let attitude = Attitude(motion.attitude)
        let g = neutral.apply(to: motion.gravity)
        var line = line
        line.removeLast()   // the closing brace
        return line + ",\"pitch\":\(number(attitude.pitch)),\"roll\":\(number(attitude.roll)),\"yaw\":\(number(attitude.yaw)),"
            + "\"calibrated_gravity\":[\(number(g.x)),\(number(g.y)),\(number(g.z))]}"
    }

    /// The neutral the player stored for `source` (`tiltmaze calibrate`, the game's "Calibrate here"),
    /// level where there is none: a replay keeps no calibration, so its lines are the same on every machine.
    static func storedNeutral(of source: any MotionSource) -> TiltReference {
        guard source.calibrationIdentity != nil else { return .level }
        return StoredCalibration(for: source, environment: ProcessInfo.processInfo.environment, report: printError)
            .loaded.calibration.reference
    }

    /// JSON has no NaN or infinity: a value that is not finite becomes null (as for the other fields).
    private static func number(_ d: Double) -> String { d.isFinite ? "\(d)" : "null" }
}
