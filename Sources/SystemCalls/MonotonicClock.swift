// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Nanoseconds on `CLOCK_MONOTONIC`: the one time base of every sample,
/// deadline and frame in TiltMaze (IIO and evdev timestamps are switched to it).
public enum MonotonicClock {
    /// Now, in nanoseconds since an unspecified start (boot, on Linux).
    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`; on
    /// Linux it is served by the vDSO, without entering the kernel.
    @inline(__always)
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }

    /// Sleeps until the monotonic clock reads `deadline` (absolute, so errors
    /// do not accumulate from one period to the next). Returns at once if the
    /// deadline has passed. Restarts after signals.
    /// The corresponding C function is `clock_nanosleep(TIMER_ABSTIME)`.
    public static func sleep(until deadline: Int64) {
        // time_t, not Int: on 32-bit ARM with a 64-bit time_t the two differ.
        var ts = timespec(tv_sec: time_t(deadline / 1_000_000_000),
                          tv_nsec: Int(deadline % 1_000_000_000))
        // clock_nanosleep returns the errno instead of setting it: EINTR means go on sleeping.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

extension Duration {
    /// The whole duration in nanoseconds, the unit of `MonotonicClock`.
    @inlinable
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
