// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemPackage
import LibC

// The one helper that turns "returned -1, look at errno" into a value, and
// the one place EINTR is retried: every call of this module, and every
// module that makes a system call, goes through it (the swift-system habit).

/// Calls `body` until it does not fail with EINTR (unless
/// `retryOnInterrupt` is false: for a wait where a signal is news);
/// its result, or the errno it failed with.
@inlinable
public func valueOrErrno<T: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> T) -> Result<T, Errno> {
    while true {
        let rc = body()
        if rc != -1 { return .success(rc) }
        let code = Errno(rawValue: errno)
        if retryOnInterrupt && code == .interrupted { continue }
        return .failure(code)
    }
}

/// `valueOrErrno` for calls whose only news is success.
@inlinable
public func nothingOrErrno<T: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> T) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}

/// For calls that return an errno value instead of setting errno
/// (`pthread_*`): 0 is success.
@inlinable
public func errnoResult(_ rc: Int32) -> Result<Void, Errno> {
    rc == 0 ? .success(()) : .failure(Errno(rawValue: rc))
}
