// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Handoff
import LibC

@Suite("SPSCRing, one thread")
struct SPSCRingSingleThreadTests {
    @Test("a new ring is empty and pops nothing")
    func newRingIsEmpty() {
        let ring = SPSCRing<Int>(capacity: 8)
        #expect(ring.isEmpty)
        #expect(ring.count == 0)
        #expect(ring.pop() == nil)
        #expect(ring.capacity == 8)
    }

    @Test("values come out in the order they went in")
    func fifoOrder() {
        let ring = SPSCRing<Int>(capacity: 8)
        for i in 1...5 { #expect(ring.push(i)) }
        #expect(ring.count == 5)
        for i in 1...5 { #expect(ring.pop() == i) }
        #expect(ring.pop() == nil)
    }

    @Test("a full ring refuses the newest value, keeps the old ones and counts the drop")
    func fullRingRefusesNewest() {
        let ring = SPSCRing<Int>(capacity: 4)
        for i in 0..<4 { #expect(ring.push(i)) }
        #expect(ring.push(99) == false)
        #expect(ring.push(100) == false)
        #expect(ring.droppedCount == 2)
        #expect(ring.count == 4)
        for i in 0..<4 { #expect(ring.pop() == i) }
        #expect(ring.push(5))
        #expect(ring.pop() == 5)
        #expect(ring.droppedCount == 2)
    }

    @Test("indices wrap around the storage many times without losing order")
    func wrapAround() {
        let ring = SPSCRing<UInt32>(capacity: 4)
        var next: UInt32 = 0, expected: UInt32 = 0
        for round in 0..<1000 {
            let burst = round % 4 + 1
            for _ in 0..<burst { #expect(ring.push(next)); next += 1 }
            for _ in 0..<burst { #expect(ring.pop() == expected); expected += 1 }
        }
        #expect(ring.isEmpty)
    }

    @Test("drain hands out everything available, oldest first, and frees the slots")
    func drainTakesAll() {
        let ring = SPSCRing<Int>(capacity: 8)
        for i in 0..<6 { ring.push(i) }
        _ = ring.pop()
        var seen: [Int] = []
        let n = ring.drain { seen.append($0) }
        #expect(n == 5)
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(ring.isEmpty)
        for i in 0..<8 { #expect(ring.push(i)) }   // all slots free again
        #expect(ring.drain { _ in } == 8)
    }

    @Test("drain on an empty ring does nothing")
    func drainEmpty() {
        let ring = SPSCRing<Int>(capacity: 2)
        #expect(ring.drain { _ in Issue.record("called on empty ring") } == 0)
    }

    struct Stop: Error {}

    @Test("a value whose handler throws counts as consumed; the rest stay")
    func drainThrowing() {
        let ring = SPSCRing<Int>(capacity: 8)
        for i in 0..<4 { ring.push(i) }
        #expect(throws: Stop.self) {
            try ring.drain { if $0 == 1 { throw Stop() } }
        }
        #expect(ring.pop() == 2)
        #expect(ring.pop() == 3)
    }

    @Test("wrap-around inside one drain keeps order")
    func drainAcrossWrap() {
        let ring = SPSCRing<Int>(capacity: 4)
        for i in 0..<3 { ring.push(i) }
        _ = ring.pop(); _ = ring.pop()
        for i in 3..<6 { ring.push(i) }   // occupies slots 2,3,0,1
        var seen: [Int] = []
        ring.drain { seen.append($0) }
        #expect(seen == [2, 3, 4, 5])
    }

    @Test("carries multi-word values intact")
    func wideElements() {
        struct Wide: BitwiseCopyable, Equatable { var a, b, c, d, e, f: Double }
        let ring = SPSCRing<Wide>(capacity: 2)
        let w = Wide(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6)
        ring.push(w)
        #expect(ring.pop() == w)
    }
}

/// A 48-byte item carrying its own sequence number in every word, so a torn
/// read (half old, half new) is caught, not just a reordering.
struct Stamped: BitwiseCopyable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    init(_ n: UInt64) { words = (n, n &* 3, n &* 5, n &* 7, n &* 11, n &* 13) }
    var isConsistent: Bool {
        let n = words.0
        return words.1 == n &* 3 && words.2 == n &* 5 && words.3 == n &* 7 && words.4 == n &* 11 && words.5 == n &* 13
    }
}

@Suite("SPSCRing, two threads")
struct SPSCRingConcurrencyTests {
    /// Ten million items by default; TILTMAZE_STRESS_ITEMS lowers it for the
    /// slower thread-sanitizer run, which still crosses millions of slots.
    static var itemCount: UInt64 {
        if let s = getenv("TILTMAZE_STRESS_ITEMS"), let n = UInt64(String(cString: s)) { return n }
        return 10_000_000
    }

    @Test("ten million items cross between threads in order, none lost or duplicated, none torn")
    func stress() {
        let total = Self.itemCount
        let ring = SPSCRing<Stamped>(capacity: 1024)
        let producer = Thread2 {
            var n: UInt64 = 0
            while n < total {
                if ring.push(Stamped(n)) { n += 1 }
            }
        }
        var expected: UInt64 = 0
        var torn = 0, outOfOrder = 0
        while expected < total {
            ring.drain { item in
                if !item.isConsistent { torn += 1 }
                if item.words.0 != expected { outOfOrder += 1 }
                expected = item.words.0 + 1
            }
        }
        producer.join()
        #expect(torn == 0)
        #expect(outOfOrder == 0)
        #expect(expected == total)
        #expect(ring.pop() == nil)
    }

    @Test("pop-by-pop consumption across threads keeps order")
    func stressPop() {
        let total: UInt64 = min(Self.itemCount, 2_000_000)
        let ring = SPSCRing<UInt64>(capacity: 64)
        let producer = Thread2 {
            var n: UInt64 = 0
            while n < total { if ring.push(n) { n += 1 } }
        }
        var expected: UInt64 = 0
        var bad = 0
        while expected < total {
            if let v = ring.pop() {
                if v != expected { bad += 1 }
                expected = v + 1
            }
        }
        producer.join()
        #expect(bad == 0)
    }
}

/// A bare pthread for the tests: the ring's producer must be a real OS thread.
final class Thread2: @unchecked Sendable {
    // @unchecked Sendable: `handle` is written by init and read by join, both
    // on the thread that made it.
    private var handle = pthread_t()
    private final class Box { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }
    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        precondition(rc == 0, "pthread_create failed: \(rc)")
    }
    func join() { pthread_join(handle, nil) }
}
