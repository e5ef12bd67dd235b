// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Evdev
import Handoff

/// The sensor thread's work per read: events in, checked samples into the
/// ring. Apart from `EvdevMotionSource` so the benchmark measures this very
/// code (`Benchmarks/`, EvdevFeed) without a device.
public struct EvdevSampleFeeder: Sendable {
    public var assembler: EvdevSampleAssembler
    private var judge = SamplePlausibility()

    public init(assembler: EvdevSampleAssembler) {
        self.assembler = assembler
    }

    /// Assembles `events` into samples and pushes the plausible ones (a full
    /// ring refuses and counts them itself); returns how many were refused as impossible.
    public mutating func feed(_ events: UnsafeBufferPointer<EvdevEvent>, into ring: SPSCRing<MotionSample>) -> Int {
        var refused = 0
        for e in events {
            guard let sample = assembler.add(type: e.type.rawValue, code: e.code, value: e.value, time: e.time) else { continue }
            if judge.accept(sample) {
                ring.push(sample)
            } else {
                refused += 1
            }
        }
        return refused
    }

    /// After SYN_DROPPED (see `EvdevSampleAssembler.dropped()`).
    public mutating func dropped() { assembler.dropped() }
}
