// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What one `EvdevDevice.readEvents(into:)` put in the caller's buffer.
public enum EvdevReadResult: Sendable, Hashable {
    /// `count` events, in the order the device sent them, from the start
    /// of the buffer. Read again: more may be waiting.
    case events(Int)
    /// The kernel dropped events (`SYN_DROPPED`) before the first event in
    /// the buffer. Forget any frame not yet ended by a SYN_REPORT. The
    /// buffer starts with the events libevdev made from the device's
    /// present state: each axis, key, LED or switch that differs from what
    /// the reader last saw, then a SYN_REPORT (none at all if nothing
    /// changed), all stamped with the SYN_DROPPED's time and without
    /// MSC_TIMESTAMP (it is not state). It may go on with events that came
    /// after; `count` in all. A resync longer than the buffer continues in
    /// the next reads as `.events`.
    case resynced(Int)
    /// Nothing to read now: wait on `EvdevDevice.pollDescriptor`.
    case wouldBlock

    /// The number of events in the buffer.
    public var count: Int {
        switch self {
        case .events(let n), .resynced(let n): return n
        case .wouldBlock: return 0
        }
    }
}
