// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import FoundationEssentials

/// One finding of `tiltmaze doctor`: a status, the check it belongs to, and
/// what was found with, when it is not OK, the fix.
public struct DoctorLine: Equatable, Sendable, CustomStringConvertible {
    public enum Status: String, Sendable {
        case ok = "OK"
        case warn = "WARN"
        case fail = "FAIL"
    }

    public var status: Status
    /// The check's name, as hardware.md's troubleshooting headings use it.
    public var check: String
    public var text: String

    static func ok(_ check: String, _ text: String) -> DoctorLine { DoctorLine(status: .ok, check: check, text: text) }
    static func warn(_ check: String, _ text: String) -> DoctorLine { DoctorLine(status: .warn, check: check, text: text) }
    static func fail(_ check: String, _ text: String) -> DoctorLine { DoctorLine(status: .fail, check: check, text: text) }

    /// "OK   IIO: mpu6050 on iio:device0": statuses padded so the checks line up.
    public var description: String {
        let status = status.rawValue
        return status + String(repeating: " ", count: max(0, 5 - status.count)) + "\(check): \(text)"
    }
}
