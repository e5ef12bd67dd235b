// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization

/// A lock-free single-producer/single-consumer ring of bitwise-copyable values.
///
/// Exactly one thread may call the producer methods (`push`) and exactly one
/// thread the consumer methods (`pop`, `drain`, `count`); the two may differ.
/// Neither side ever blocks, takes a lock, allocates or makes a syscall; a
/// ring made with a `bell` rings it after each value, so a consumer may
/// sleep until one comes instead of polling (what the bell costs is the bell's).
///
/// Indices grow and are masked on use. A 64-bit `Int` will not overflow in the
/// lifetime of a machine at any sample rate; a 32-bit one wraps after 2³¹
/// values (25 days at 1 kHz), so every difference of indices is taken with
/// wrapping arithmetic, which stays right across the wrap. Each side keeps a
/// private cached copy of the other side's index and reloads it only when the
/// cache says the ring looks full (producer) or empty (consumer): in steady
/// state that removes most cross-core cache-line traffic. Producer-owned and
/// consumer-owned state sit on separate cache lines so the two threads do not
/// false-share (measured 3.7x slower when they did).
///
/// When the ring is full the producer's newest value is refused and counted:
/// a sensor must never wait on a slow game, and old samples are the ones the
/// physics needs next (they carry the timestamps). `droppedCount` lets the
/// consumer report the loss.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked Sendable: the storage is shared by design; the acquire/release
    // pairs on `tail` and `head` order every slot access between the two threads.

    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let mask: Int

    // Padding keeps each group on its own 128-byte span (two 64-byte lines,
    // because adjacent-line prefetch pulls pairs in on x86).
    @usableFromInline let _pad0: CacheLinePad = .init()

    /// Next slot the producer writes; published with release.
    @usableFromInline let tail = Atomic<Int>(0)
    /// Producer's last-seen value of `head`. Touched by the producer thread
    /// only, so the runtime exclusivity check (a `swift_beginAccess` call per
    /// push once inlined into another module, 2.5-3.6x the cost of the whole
    /// push; see Benchmarks/) guards nothing and is turned off.
    @exclusivity(unchecked) @usableFromInline var cachedHead: Int = 0
    /// Values refused because the ring was full (written by the producer only).
    @usableFromInline let dropped = Atomic<Int>(0)
    @usableFromInline let _pad1: CacheLinePad = .init()

    /// Next slot the consumer reads; published with release.
    @usableFromInline let head = Atomic<Int>(0)
    /// Consumer's last-seen value of `tail`. Consumer thread only; unchecked
    /// for the same reason as `cachedHead`.
    @exclusivity(unchecked) @usableFromInline var cachedTail: Int = 0
    @usableFromInline let _pad2: CacheLinePad = .init()

    /// The number of values the ring can hold.
    public let capacity: Int
    /// Rung after each value pushed; nil for a ring its consumer polls.
    @usableFromInline package let bell: (any RingBell)?

    /// Creates an empty ring its consumer polls.
    ///
    /// - Parameter capacity: a power of two, at least 2.
    public convenience init(capacity: Int) {
        self.init(capacity: capacity, bell: nil)
    }

    /// Creates an empty ring.
    ///
    /// - Parameters:
    ///   - capacity: a power of two, at least 2.
    ///   - bell: rung by the producer after each value it pushes; nil for a ring its consumer polls.
    package init(capacity: Int, bell: (any RingBell)?) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0,
                     "SPSCRing capacity must be a power of two >= 2, got \(capacity)")
        self.capacity = capacity
        self.mask = capacity - 1
        self.bell = bell
        // Slots start on a cache-line boundary, so a 64-byte sample never
        // straddles two lines (the default alignment is the element's, 8).
        self.storage = UnsafeMutableRawPointer
            .allocate(byteCount: MemoryLayout<Element>.stride * capacity,
                      alignment: max(64, MemoryLayout<Element>.alignment))
            .bindMemory(to: Element.self, capacity: capacity)
    }

    deinit {
        // Elements are bitwise-copyable: nothing to deinitialize.
        UnsafeMutableRawPointer(storage).deallocate()
    }

    // MARK: Producer side

    /// Appends `value` if there is room. Producer thread only.
    ///
    /// - Returns: `false`, and counts the value as dropped, when the ring is full.
    @inlinable @inline(__always)
    @discardableResult
    public func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)       // only this thread writes tail
        if t &- cachedHead == capacity {
            cachedHead = head.load(ordering: .acquiring)
            if t &- cachedHead == capacity {
                dropped.wrappingAdd(1, ordering: .relaxed)
                return false
            }
        }
        (storage + (t & mask)).initialize(to: value)
        tail.store(t &+ 1, ordering: .releasing)
        if let bell { bell.ring() }
        return true
    }

    // MARK: Consumer side

    /// Removes and returns the oldest value, or `nil` when empty. Consumer thread only.
    @inlinable @inline(__always)
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)       // only this thread writes head
        if h == cachedTail {
            cachedTail = tail.load(ordering: .acquiring)
            if h == cachedTail { return nil }
        }
        let value = (storage + (h & mask)).pointee
        head.store(h &+ 1, ordering: .releasing)
        return value
    }

    /// Hands every value available now to `body`, oldest first, and frees their
    /// slots in one release store. Consumer thread only.
    ///
    /// Values the producer adds while `body` runs are left for the next call,
    /// so a fast producer cannot keep the consumer here forever.
    ///
    /// - Returns: how many values were handed out.
    @inlinable
    @discardableResult
    public func drain(_ body: (Element) throws -> Void) rethrows -> Int {
        let h = head.load(ordering: .relaxed)
        cachedTail = tail.load(ordering: .acquiring)
        let n = cachedTail &- h
        if n == 0 { return 0 }
        var i = h
        // Free the slots already handed out even if `body` throws.
        defer { head.store(i, ordering: .releasing) }
        while i != cachedTail {
            let value = (storage + (i & mask)).pointee
            i &+= 1
            try body(value)
        }
        return n
    }

    /// Values waiting to be consumed. Exact on the consumer thread; a snapshot
    /// that may already be stale anywhere else.
    @inlinable
    public var count: Int {
        tail.load(ordering: .acquiring) &- head.load(ordering: .relaxed)
    }

    /// Whether no value is waiting (consumer thread).
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// How many values `push` has refused because the ring was full, since creation.
    /// Safe to read from any thread.
    @inlinable
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
}

/// What a producer rings after pushing, to wake a consumer that sleeps
/// until values arrive (Realtime's `Doorbell`, a futex). Called on the
/// producer's thread after every push: it must not block or allocate.
public protocol RingBell: AnyObject, Sendable {
    func ring()
}

/// 128 bytes of nothing: spaces the ring's producer and consumer fields apart.
@usableFromInline
struct CacheLinePad: BitwiseCopyable {
    @usableFromInline var bytes: (Int, Int, Int, Int, Int, Int, Int, Int,
                                  Int, Int, Int, Int, Int, Int, Int, Int)
    @usableFromInline init() { bytes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
}
