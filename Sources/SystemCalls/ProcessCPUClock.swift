// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The CPU time this process has used, all its threads, user and system
/// together: what a sensor source costs the machine, beside the wall time
/// `MonotonicClock` keeps.
public enum ProcessCPUClock {
    /// CPU nanoseconds used so far. The corresponding C function is
    /// `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }
}
