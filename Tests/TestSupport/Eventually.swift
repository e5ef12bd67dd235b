// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Realtime
import Synchronization

/// How long a test waits for something that should happen promptly. Far
/// beyond any honest delay on a loaded two-core machine, or under the arm64
/// tier's emulation beside other work: reaching it means a
/// hang, never slowness. Tests never assert that something was fast.
public let hangBound: Double = 60

/// Polls `condition` every millisecond until it holds; false only if it never
/// did within `seconds` (see `hangBound`).
public func eventually(within seconds: Double = hangBound, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
    while !condition() {
        if MonotonicClock.now() >= deadline { return false }
        MonotonicClock.sleep(until: MonotonicClock.now() + 1_000_000)
    }
    return true
}

/// Runs `body` on a thread of its own and waits for it to return; false
/// when it has not within `seconds`, meaning it hung (the thread is then
/// left running, and the test fails).
public func returns(within seconds: Double = hangBound, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = Flag()
    guard let thread = try? OSThread(name: "test-returns", { body(); done.set() }) else { return false }
    guard eventually(within: seconds, { done.isSet }) else { return false }
    thread.join()
    return true
}

/// A flag one thread sets and another polls.
public final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    public init() {}
    public func set() { value.store(true, ordering: .releasing) }
    public var isSet: Bool { value.load(ordering: .acquiring) }
}
