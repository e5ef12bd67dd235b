// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Why motion updates could not start, or stopped.
public enum MotionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sensor asked for cannot be had: none found, no permission, a bad
    /// recording. The text names what was looked for and what to do.
    case unavailable(String)
    /// The sensor stopped producing (unplugged, no data): the text says which and why.
    case sensorStopped(String)
    /// Updates are already running on this manager: stop them first.
    case alreadyActive
    /// The calibration could not be written: the text names the file and why.
    case calibrationNotSaved(String)
    /// A recording could not be made or saved: the text names the file and
    /// why. Nothing is left under the name asked for.
    case recordingNotSaved(String)
    /// Recording needs running updates (the file's header names their sensor): start them first.
    case notRecordingWithoutUpdates
    /// A calibration asked for could not be made: the board moved, the
    /// sensor has no gyroscope, or it was cancelled. The text says what to do.
    case calibrationRefused(String)

    /// The sensor's or the file's own words: what went wrong and what to do.
    public var description: String {
        switch self {
        case .unavailable(let why), .sensorStopped(let why), .calibrationNotSaved(let why), .recordingNotSaved(let why),
             .calibrationRefused(let why): why
        case .alreadyActive: "motion updates are already running: call stop() first"
        case .notRecordingWithoutUpdates: "a recording needs running motion updates: start them, then startRecording(to:)"
        }
    }
}
