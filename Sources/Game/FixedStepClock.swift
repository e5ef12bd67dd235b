// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Glenn Fiedler's fixed timestep, without the clock: feed it real elapsed
/// time, it says how many fixed steps to take.
///
/// Catch-up is bounded: after a stall longer than `maxSteps` steps the
/// backlog is dropped (and counted) rather than replayed in a burst that would
/// stall the next frame too.
public struct FixedStepClock: Sendable {
    public let step: Int64
    public let maxSteps: Int
    public private(set) var accumulator: Int64 = 0
    public private(set) var droppedSteps: UInt64 = 0
    public private(set) var overruns: UInt64 = 0

    /// - Parameters:
    ///   - step: the fixed step, nanoseconds.
    ///   - maxSteps: most steps one call may ask for.
    public init(step: Int64, maxSteps: Int) {
        precondition(step > 0 && maxSteps > 0)
        self.step = step
        self.maxSteps = maxSteps
    }

    /// Adds `elapsed` nanoseconds of real time and returns how many steps to take now.
    public mutating func advance(by elapsed: Int64) -> Int {
        accumulator += max(0, elapsed)
        var n = Int(accumulator / step)
        if n > maxSteps {
            droppedSteps &+= UInt64(n - maxSteps)
            overruns &+= 1
            n = maxSteps
            accumulator = 0
        } else {
            accumulator -= Int64(n) * step
        }
        return n
    }
}
