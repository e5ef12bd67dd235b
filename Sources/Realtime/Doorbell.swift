// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CSystemCalls
import Handoff

/// Lets a consumer sleep until a producer says there is work, with no lock
/// on either side: a futex under a ring counter. Ringing costs one atomic
/// add, and a `futex` wake only while a consumer sleeps; waiting costs a
/// system call only when there is nothing to do.
///
/// A consumer reads ``rings`` before looking for work, and passes it to
/// ``wait(after:timeout:)`` when it found none: a ring in between makes the
/// wait return at once, so no wake-up is lost.
public final class Doorbell: RingBell, @unchecked Sendable {
    // @unchecked Sendable: the state is C11 atomics, shared by design.
    private let state: UnsafeMutablePointer<csc_doorbell>

    public init() {
        state = .allocate(capacity: 1)
        state.initialize(to: csc_doorbell())
    }

    deinit { state.deallocate() }

    /// Wakes whoever waits. Any thread; never blocks.
    public func ring() { csc_doorbell_ring(state) }

    /// How many times the bell has rung (wrapping); read before looking for work.
    public var rings: UInt32 { csc_doorbell_rings(state) }

    /// Sleeps until the bell rings after `seen` was read, or `timeout`
    /// nanoseconds pass; returns at once if it already has. Spurious returns
    /// are possible: look for work again after each.
    public func wait(after seen: UInt32, timeout: Int64) {
        csc_doorbell_wait(state, seen, max(timeout, 0))
    }
}
