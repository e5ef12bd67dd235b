// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Atomics

/// Handoff.SPSCRing again, on swift-atomics' `UnsafeAtomic` instead of
/// `Synchronization.Atomic`: same algorithm (indices grow, masked on use; each
/// side caches the other's index and reloads it only when the ring looks full
/// or empty), same memory orderings, same cache-line layout, same `@inlinable`
/// surface. Benchmarks only: it exists so the two atomics libraries can be
/// compared in one run. The cached indices live behind raw pointers, which
/// carry no runtime exclusivity check, as SPSCRing's `@exclusivity(unchecked)`
/// vars carry none: the comparison is of the atomics alone.
///
/// Layout: one 384-byte block aligned to 128 bytes holds the shared state,
/// the producer's and the consumer's groups each on their own 128-byte span
/// (the span SPSCRing's `CacheLinePad`s give):
///
///     +0    tail (atomic), cachedHead, dropped (atomic)   -- producer
///     +128  head (atomic), cachedTail                     -- consumer
public final class AtomicsSPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let mask: Int
    public let capacity: Int

    @usableFromInline let block: UnsafeMutableRawPointer
    @usableFromInline let tail: UnsafeAtomic<Int>
    @usableFromInline let cachedHead: UnsafeMutablePointer<Int>
    @usableFromInline let dropped: UnsafeAtomic<Int>
    @usableFromInline let head: UnsafeAtomic<Int>
    @usableFromInline let cachedTail: UnsafeMutablePointer<Int>

    static var span: Int { 128 }

    /// - Parameter capacity: a power of two, at least 2.
    public init(capacity: Int) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "capacity must be a power of two >= 2")
        self.capacity = capacity
        self.mask = capacity - 1
        self.storage = .allocate(capacity: capacity)
        let span = Self.span
        let block = UnsafeMutableRawPointer.allocate(byteCount: 3 * span, alignment: span)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: 3 * span)
        self.block = block
        func atomic(at offset: Int) -> UnsafeAtomic<Int> {
            let p = (block + offset).bindMemory(to: Int.AtomicRepresentation.self, capacity: 1)
            p.initialize(to: Int.AtomicRepresentation(0))
            return UnsafeAtomic(at: p)
        }
        tail = atomic(at: 0)
        cachedHead = (block + 8).bindMemory(to: Int.self, capacity: 1)
        dropped = atomic(at: 16)
        head = atomic(at: span)
        cachedTail = (block + span + 8).bindMemory(to: Int.self, capacity: 1)
    }

    deinit {
        storage.deallocate()
        block.deallocate()
    }

    /// Appends `value` if there is room. Producer thread only.
    @inlinable @inline(__always)
    @discardableResult
    public func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if t - cachedHead.pointee == capacity {
            cachedHead.pointee = head.load(ordering: .acquiring)
            if t - cachedHead.pointee == capacity {
                dropped.wrappingIncrement(ordering: .relaxed)
                return false
            }
        }
        (storage + (t & mask)).initialize(to: value)
        tail.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Removes and returns the oldest value, or `nil` when empty. Consumer thread only.
    @inlinable @inline(__always)
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        if h == cachedTail.pointee {
            cachedTail.pointee = tail.load(ordering: .acquiring)
            if h == cachedTail.pointee { return nil }
        }
        let value = (storage + (h & mask)).pointee
        head.store(h &+ 1, ordering: .releasing)
        return value
    }

    /// Hands every value available now to `body`, then frees their slots in one
    /// release store. Consumer thread only.
    @inlinable
    @discardableResult
    public func drain(_ body: (Element) throws -> Void) rethrows -> Int {
        let h = head.load(ordering: .relaxed)
        cachedTail.pointee = tail.load(ordering: .acquiring)
        let n = cachedTail.pointee &- h
        if n == 0 { return 0 }
        var i = h
        defer { head.store(i, ordering: .releasing) }
        while i != cachedTail.pointee {
            let value = (storage + (i & mask)).pointee
            i &+= 1
            try body(value)
        }
        return n
    }

    /// How many values `push` has refused because the ring was full.
    @inlinable
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
