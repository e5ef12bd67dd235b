// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import LibC

/// libdrm answers a failure two ways: -1 with `errno` set (its ioctl
/// wrapper), or the negated errno (the `DRM_IOCTL` macro and most
/// `drmMode*` calls). Either becomes a `DeviceError` naming the card.
@usableFromInline
func drmCall(_ path: String, _ operation: @autoclosure () -> String, _ result: Int32) throws(DeviceError) {
    guard result < 0 else { return }
    let code = result == -1 ? errno : -result
    throw DeviceError(errno: code, operation: operation(), path: path)
}

/// A libdrm getter that returns nil on failure with `errno` set.
func drmObject<T>(_ path: String, _ operation: @autoclosure () -> String, _ pointer: T?) throws(DeviceError) -> T {
    guard let pointer else { throw DeviceError(errno: errno == 0 ? ENODEV : errno, operation: operation(), path: path) }
    return pointer
}

extension DRMCard {
    /// `body` with the card's descriptor lent to it, its failure a
    /// `DeviceError` naming the card and `operation`.
    func call(_ operation: @autoclosure () -> String, _ body: (Int32) -> Int32) throws(DeviceError) {
        try drmCall(path, operation(), file.withDescriptor { body($0.rawValue) })
    }

    /// A libdrm getter with the card's descriptor lent to it; nil is a failure.
    func object<T>(_ operation: @autoclosure () -> String, _ body: (Int32) -> T?) throws(DeviceError) -> T {
        try drmObject(path, operation(), file.withDescriptor { body($0.rawValue) })
    }
}
