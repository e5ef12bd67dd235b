// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff
import MotionCore
import Realtime
import SystemCalls

/// The consumer's side of a source, as `SensorThread` is the producer's: the
/// one way a program that is not a fixed-rate loop reads a sensor (monitor,
/// record, the calibrations, doctor's live check, the library's update
/// thread).
///
/// `read(until:_:)` sleeps on the ring's doorbell until samples come, hands
/// each on, and says why it stopped, if it did, in a value every caller
/// switches over. The source's texts (which take a lock) are read only
/// when its status count has moved, as the frame loop reads them.
///
/// The fixed-rate loops (the physics, the motion screens' models) do not use
/// it: they drain their ring on their own tick (`MotionIntake`) and never
/// wait for a sample, which is what makes their rate fixed.
///
/// One thread only: the ring's consumer.
public struct SampleReader: ~Copyable {
    /// Why a `read` stopped (the samples before it were handed on).
    public enum Stop: Equatable, Sendable {
        /// The deadline passed.
        case deadline
        /// The source stopped by itself, in its own words.
        case failed(String)
        /// A source with an end (a recording) gave its last sample, and it was handed on.
        case ended
        /// No samples come for now, and why (a controller away). Said once,
        /// when it begins; the reads after it wait for the source to come
        /// back (`health.interruption` is nil again then).
        case interrupted(String)
    }

    public let source: any MotionSource
    private let doorbell: Doorbell?
    private var statusSeen: UInt64?
    /// The source's health as of the last time its status count moved:
    /// its texts are current, its counts as they were then (read
    /// `source.health` for the counts now).
    public private(set) var health: SourceHealth = .fine
    /// How many times a read has woken from a wait: once per ring at most,
    /// and once per `statusPeriod` while nothing comes.
    public private(set) var wakeups = 0

    /// How often a ring with no doorbell (one made with
    /// `SPSCRing(capacity:)`) is looked at.
    public static let pollPeriod: Int64 = 2_000_000
    /// The longest a wait on a doorbell lasts: the device sources ring it
    /// when their status changes, but a source of someone else's may not.
    public static let statusPeriod: Int64 = 100_000_000

    public init(_ source: any MotionSource) {
        self.source = source
        self.doorbell = source.samples.bell as? Doorbell
    }

    /// Waits until samples come, `deadline` (monotonic ns) passes, the
    /// source stops or the ring's bell rings, and hands every sample waiting
    /// to `each`, oldest first. It waits once at most: the caller looks at
    /// what else it waits for (a stop asked for, a neutral changed) at least
    /// every `statusPeriod`, and whenever the bell was rung for it.
    /// - Returns: nil when it woke or samples came, and the source goes on
    ///   (a caller loops); otherwise why the reading stopped (the samples
    ///   before it were handed on).
    public mutating func read(until deadline: Int64, _ each: (MotionSample) -> Void) -> Stop? {
        var waited = false
        while true {
            let rings = doorbell?.rings ?? 0
            // Before the drain: a recording's last samples are in the ring before it says it has ended.
            let ended = source.hasEnded
            let taken = source.samples.drain(each)
            let stop = readStatus()
            if case .failed = stop { return stop }
            if ended, taken == 0, source.samples.isEmpty { return .ended }
            if let stop { return stop }
            let now = MonotonicClock.now()
            if now >= deadline { return .deadline }
            if taken > 0 || waited { return nil }
            if let doorbell {
                doorbell.wait(after: rings, timeout: min(deadline - now, Self.statusPeriod))
            } else {
                MonotonicClock.sleep(until: min(deadline, now + Self.pollPeriod))
            }
            waited = true
            wakeups += 1
        }
    }

    /// The source's health anew when its count moved; a failure, or an
    /// interruption that has just begun, as a stop.
    private mutating func readStatus() -> Stop? {
        let count = source.statusChanges
        if count != statusSeen {
            statusSeen = count
            let before = health.interruption
            health = source.health
            if let failure = health.failure { return .failed(failure) }
            // A recording that ended waits too, but that is `.ended`'s to say.
            if let why = health.interruption, why != before, !source.hasEnded { return .interrupted(why) }
            return nil
        }
        return health.failure.map(Stop.failed)
    }
}
