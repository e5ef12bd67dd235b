// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A call on a device that failed: which operation, on which file (a device
/// node, a sysfs attribute, a libiio URI), the errno it gave, and what the
/// errno alone cannot say. The one error shape of the device wrappers
/// (`IIOError` and `EvdevError` are this type), so code above them handles
/// one kind of failure.
///
/// `description` says what happened and to which file, and, for the errors a
/// user can meet, what to do next in the library's own terms. Advice about
/// how this program is installed (its udev rules, its group) is added above
/// the wrappers, in `detail`.
public struct DeviceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The errno value (positive): EACCES, ENOENT, ENODEV, ENOTTY, EBUSY, …
    public var errno: Int32
    /// What was being done: "open", "read in_accel_scale", "read events".
    public var operation: String
    /// The file or device involved: "/dev/input/event5",
    /// "/sys/bus/iio/devices/iio:device0/in_accel_scale", a URI.
    public var path: String
    /// What the errno alone cannot say (the bad text that was read, what
    /// to do next); replaces the generic hint when set.
    public var detail: String?

    public init(errno: Int32, operation: String, path: String, detail: String? = nil) {
        self.errno = errno
        self.operation = operation
        self.path = path
        self.detail = detail
    }

    /// Whether the device has gone away (unplugged, switched off, out of
    /// range, driver unbound): it must be opened again when it comes back.
    public var isDeviceGone: Bool { errno == ENODEV }

    /// Whether the call may well succeed if made again: the errors a
    /// glitching bus gives (an unacknowledged transfer, lost arbitration, a
    /// controller that timed out, a garbled transfer), which Linux's I²C
    /// drivers report as EREMOTEIO, EAGAIN, ETIMEDOUT and EIO, and which
    /// reach a sysfs read of a chip on that bus unchanged.
    public var isTransient: Bool { [EREMOTEIO, EAGAIN, ETIMEDOUT, EIO].contains(errno) }

    /// Whether this user lacks the permission the call needed.
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// "path: cannot operation: strerror (errno N); hint".
    public var description: String {
        let text = "\(path): cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        if let hint = detail ?? genericHint { return text + "; " + hint }
        return text
    }

    /// What any user of the library would be told for this errno.
    private var genericHint: String? {
        switch errno {
        case EACCES, EPERM: "this user may not use it"
        case ENODEV: "the device is gone (unplugged, switched off or out of range): reconnect it"
        case ENOENT where operation == "open": "no such node: is the device connected?"
        default: nil
        }
    }
}
