// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization

/// A wait-free single-writer/single-reader "latest value" hand-off (a triple buffer).
///
/// The writer (the physics thread) publishes whole states at its own rate; the
/// reader (the renderer) takes the newest one whenever it likes. Neither waits
/// for the other, nothing tears, and states the reader never asked for are
/// simply overwritten: exactly what a renderer slower or faster than the
/// physics wants.
///
/// Three slots: the writer owns one ("back"), the reader owns one ("front"),
/// and the third ("middle") is passed between them by one atomic exchange of
/// a small word holding the middle slot's index and a "fresh" bit.
public final class LatestValue<Value: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked Sendable: slot ownership is transferred by the acq_rel exchange
    // on `middle`, so no slot is ever touched by both threads at once.

    @usableFromInline let slots: UnsafeMutablePointer<Value>
    /// Bits 0-1: index of the middle slot. Bit 2: it holds a value not yet read.
    @usableFromInline let middle: Atomic<Int>
    // Each is touched by one thread only: no runtime exclusivity check needed.
    @exclusivity(unchecked) @usableFromInline var back: Int      // writer's slot
    @exclusivity(unchecked) @usableFromInline var front: Int     // reader's slot
    @usableFromInline static var freshBit: Int { 4 }

    /// Creates the hand-off holding `initial`, which the first `read` returns
    /// until something is published.
    public init(_ initial: Value) {
        slots = .allocate(capacity: 3)
        slots.initialize(repeating: initial, count: 3)
        back = 0
        middle = Atomic(1)
        front = 2
    }

    deinit { slots.deallocate() }

    /// Publishes `value` as the newest state. Writer thread only.
    @inlinable
    public func publish(_ value: Value) {
        publish { $0 = value }
    }

    /// Publishes the newest state written in place: `update` gets the
    /// writer's slot, which holds an older state, and must set every part
    /// of it the reader uses. For a large value this saves building it
    /// aside and copying it in. Writer thread only.
    @inlinable
    public func publish(updating update: (inout Value) -> Void) {
        update(&slots[back])
        let old = middle.exchange(back | Self.freshBit, ordering: .acquiringAndReleasing)
        back = old & 3
    }

    /// The newest published value (or the last one read, if nothing newer
    /// arrived). Reader thread only.
    ///
    /// - Returns: the value and whether it is newer than the previous `read`.
    @inlinable
    public func read() -> (value: Value, isNew: Bool) {
        var isNew = false
        if middle.load(ordering: .relaxed) & Self.freshBit != 0 {
            let old = middle.exchange(front, ordering: .acquiringAndReleasing)
            front = old & 3
            isNew = true
        }
        return (slots[front], isNew)
    }
}
