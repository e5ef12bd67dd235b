// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

extension FileDescriptor {
    /// A device-specific request with a pointer argument; its return value.
    /// The corresponding C function is `ioctl`.
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Int32, Errno> {
        valueOrErrno { ioctl(rawValue, request, argument) }
    }
}

extension FileDescriptor {
    /// A device-specific request whose argument is a plain value (a mode
    /// number), not a pointer. The corresponding C function is `ioctl`.
    public func control(_ request: UInt, value: Int32) -> Result<Int32, Errno> {
        valueOrErrno { ioctl(rawValue, request, value) }
    }
}
