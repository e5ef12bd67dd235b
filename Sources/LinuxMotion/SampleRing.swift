// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime

extension MotionManager {
    /// A ring for a ``MotionSource`` of your own to push its samples into.
    ///
    /// Each push wakes the manager's thread at once (a futex doorbell, rung
    /// after the sample is in the ring), so a handler sees a sample within
    /// a wake-up of its arrival. A ring made with `SPSCRing(capacity:)` has
    /// no doorbell: the manager then looks at it every 2 ms, which costs
    /// latency and idle wake-ups.
    ///
    /// - Parameter capacity: a power of two, at least 2: how many samples
    ///   may wait for the manager before the newest are refused (and
    ///   counted in the ring's `droppedCount`).
    public static func sampleRing(capacity: Int = 256) -> SPSCRing<MotionSample> {
        SPSCRing(capacity: capacity, bell: Doorbell())
    }
}
