// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import AtomicsRing
import MotionCore
import Realtime
import Handoff
import Synchronization

/// The benchmark's 48-byte element: six Doubles, the first a sequence number.
struct Item48: BitwiseCopyable {
    var seq: Double
    var a = 1.0, b = 2.0, c = 3.0, d = 4.0, e = 5.0
    init(seq: Double) { self.seq = seq }
}

/// What the transfer needs of an element: carry a sequence number, so the
/// consumer can check that every item arrives once and in order.
protocol Sequenced: BitwiseCopyable {
    init(sequence: Int)
    var sequence: Int { get }
}

extension Item48: Sequenced {
    init(sequence: Int) { self.init(seq: Double(sequence)) }
    var sequence: Int { Int(seq) }
}

extension MotionSample: Sequenced {
    init(sequence: Int) {
        self.init(timestamp: Int64(sequence), acceleration: Vector3(0.1, 0.2, 9.8),
                  rotationRate: Vector3(0.01, 0.02, 0.03), fields: [.acceleration, .rotationRate])
    }
    var sequence: Int { Int(timestamp) }
}

/// The operations both rings share. Generic code over it is specialised in
/// this module, so each ring's `@inlinable` methods inline as in the game.
protocol TransferRing<Element>: AnyObject, Sendable {
    associatedtype Element: BitwiseCopyable
    init(capacity: Int)
    @discardableResult func push(_ value: Element) -> Bool
    func pop() -> Element?
    @discardableResult func drain(_ body: (Element) throws -> Void) rethrows -> Int
}

extension SPSCRing: TransferRing {}
extension AtomicsSPSCRing: TransferRing {}

enum ConsumerStyle: String { case pop, drain }

private final class StartLine: Sendable {
    let ready = Atomic<Bool>(false)
    let go = Atomic<Bool>(false)
}

/// Moves `count` items from a producer on a thread of its own (pushing, and
/// retrying while the ring is full) to the calling thread (popping one at a
/// time or draining what is there). The producer is started and waiting before
/// the clock starts; `started` and `finished` run right at the clock reads.
///
/// - Returns: nanoseconds from releasing the producer to receiving the last
///   item, and how many items arrived out of order (0 unless the ring is broken).
func transfer<R: TransferRing>(through ring: R, count: Int, consumer: ConsumerStyle,
                               started: () -> Void = {}, finished: () -> Void = {})
    -> (nanoseconds: Int64, misordered: Int) where R.Element: Sequenced
{
    let line = StartLine()
    let producer: OSThread
    do {
        producer = try OSThread(name: "bench-producer") {
            line.ready.store(true, ordering: .releasing)
            while !line.go.load(ordering: .acquiring) {}
            for i in 0..<count {
                let value = R.Element(sequence: i)
                while !ring.push(value) {}
            }
        }
    } catch {
        fatalError("\(error)")
    }
    while !line.ready.load(ordering: .acquiring) {}

    var next = 0
    var misordered = 0
    started()
    let start = MonotonicClock.now()
    line.go.store(true, ordering: .releasing)
    switch consumer {
    case .pop:
        while next < count {
            if let v = ring.pop() {
                if v.sequence != next { misordered += 1 }
                next += 1
            }
        }
    case .drain:
        while next < count {
            ring.drain { v in
                if v.sequence != next { misordered += 1 }
                next += 1
            }
        }
    }
    let end = MonotonicClock.now()
    finished()
    producer.join()
    return (end - start, misordered)
}
