// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import IIO
import SystemCalls

/// What to do about a device error on a machine set up as TiltMaze's
/// installation expects: the wrappers speak of their libraries only, and
/// this is where the program's own udev rules and group come in.
extension DeviceError {
    /// The error, a permission error now pointing to the udev rules that
    /// would let this user in. An error whose `detail` already says what to
    /// do is left as it is.
    public var withSetupAdvice: DeviceError {
        guard isPermissionDenied, detail == nil else { return self }
        var advised = self
        advised.detail = "this user may not open it: install the udev rules (\(UdevGuide.current.steps)) and log in again"
        return advised
    }
}

extension HrtimerTrigger.Availability {
    /// The kernel's state, and the set-up that gets past it.
    public var advice: String {
        switch self {
        case .available(writable: false): "\(self) (or install the udev rules in udev/, which let group \(DeviceAccess.ruleGroup) make them)"
        default: description
        }
    }
}
