// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Synchronization

/// A text one thread sets now and then (a sensor's failure, why it waits)
/// and another looks at every frame. The look is one atomic load of a
/// change count; only when it moved is the text itself read, behind a lock,
/// so a frame that finds nothing new takes no lock and copies no string.
public final class ChangingText: Sendable {
    private let text = Mutex<String?>(nil)
    private let changes = Atomic<UInt64>(0)

    public init() {}

    /// Replaces the text; the count moves after it, so a reader that sees
    /// the new count reads the new text (or a newer one).
    public func set(_ value: String?) {
        text.withLock { $0 = value }
        changes.wrappingAdd(1, ordering: .releasing)
    }

    /// The text now. Takes the lock: read it when `changeCount` has moved.
    public var value: String? { text.withLock { $0 } }

    /// How many times the text was set.
    public var changeCount: UInt64 { changes.load(ordering: .acquiring) }
}
