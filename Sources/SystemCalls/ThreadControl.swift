// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CSystemCalls
import SystemPackage

/// Settings of the calling thread that Glibc's Swift module does not reach.
public enum ThreadControl {
    /// Names the calling thread (the kernel keeps 15 bytes; longer names are
    /// cut here rather than refused). It shows in `top -H` and `ps -L`.
    /// The corresponding C function is `pthread_setname_np`.
    @discardableResult
    public static func setName(_ name: String) -> Result<Void, Errno> {
        errnoResult(csc_set_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self)))
    }

    /// How late the kernel may wake the calling thread to batch wake-ups.
    /// The corresponding C call is `prctl(PR_SET_TIMERSLACK)`.
    @discardableResult
    public static func setTimerSlack(nanoseconds: Int) -> Result<Void, Errno> {
        nothingOrErrno { csc_set_timer_slack(UInt(max(1, nanoseconds))) }
    }
}
