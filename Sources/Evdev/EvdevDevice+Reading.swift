// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev
import SystemCalls
import SystemPackage

/// Reading events: the clock, the grab, the poll descriptor, and
/// `readEvents(into:)` with SYN_DROPPED handled.
extension EvdevDevice {
    /// The descriptor to `poll` for input (POLLIN; POLLHUP/POLLERR when the
    /// device is gone). The corresponding C function is `libevdev_get_fd`.
    public var pollDescriptor: FileDescriptor { FileDescriptor(rawValue: libevdev_get_fd(handle)) }

    /// Has the kernel stamp this reader's events with `clock` from now on
    /// (events already queued keep their stamps). The kernel default is
    /// CLOCK_REALTIME. The corresponding C function is `libevdev_set_clock_id`
    /// (ioctl `EVIOCSCLOCKID`).
    public func setClock(_ clock: EvdevClock) throws(EvdevError) {
        try c_libevdev_set_clock_id(handle, clock, path: path).get()
    }

    /// Takes the device for this reader alone: no other reader (the console,
    /// a desktop) sees its events until `ungrab()` or until it is closed.
    /// Fails with EBUSY when another program holds it. The corresponding C
    /// function is `libevdev_grab` (ioctl `EVIOCGRAB`).
    public func grab() throws(EvdevError) {
        try c_libevdev_grab(handle, true, path: path).get()
    }

    /// Gives back a grab taken with `grab()`.
    /// The corresponding C function is `libevdev_grab` with `LIBEVDEV_UNGRAB`.
    public func ungrab() throws(EvdevError) {
        try c_libevdev_grab(handle, false, path: path).get()
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) until events can
    /// be read: true when they can (or the device is gone, which the next
    /// read reports), false on timeout. Events libevdev already holds count.
    /// The corresponding C functions are `libevdev_has_event_pending` and `poll`.
    public func waitForEvents(timeoutMilliseconds: Int32) throws(EvdevError) -> Bool {
        if try c_libevdev_has_event_pending(handle, path: path).get() { return true }
        switch pollDescriptor.wait(for: .readable, timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let events): return !events.isEmpty
        case .failure(let e): throw EvdevError(errno: e.rawValue, operation: "wait for events", path: path)
        }
    }

    /// Reads the events available now into `buffer`, without blocking or
    /// allocating, in the order the device sent them.
    ///
    /// When the kernel dropped events (its queue for this reader overflowed
    /// and it sent SYN_DROPPED), the events before the drop come back as
    /// `.events`, and the next call returns `.resynced`: libevdev has
    /// discarded what was queued after the drop, asked the kernel for the
    /// device's present state, and the buffer starts with the events that
    /// bring the caller there (ending in SYN_REPORT). The SYN_DROPPED itself
    /// is not in the buffer.
    ///
    /// Call until `.wouldBlock`, then wait on `pollDescriptor` (or
    /// `waitForEvents`). A device that has gone away throws ENODEV
    /// (`EvdevError.isDeviceGone`). The corresponding C function is
    /// `libevdev_next_event` (`LIBEVDEV_READ_FLAG_NORMAL`, then
    /// `LIBEVDEV_READ_FLAG_SYNC` after `LIBEVDEV_READ_STATUS_SYNC`).
    public func readEvents(into buffer: UnsafeMutableBufferPointer<EvdevEvent>) throws(EvdevError) -> EvdevReadResult {
        precondition(!buffer.isEmpty, "readEvents(into:) needs room for at least one event")
        var count = 0
        var resynced = false
        if resyncPending {
            resyncPending = false
            resyncing = true
            resynced = true
        }
        var event = input_event()
        reading: while count < buffer.count {
            let status = try c_libevdev_next_event(handle, sync: resyncing, into: &event, path: path).get()
            switch status {
            case .event:
                buffer[count] = EvdevEvent(event)
                count += 1
            case .sync where resyncing:
                buffer[count] = EvdevEvent(event)
                count += 1
            case .sync:
                // SYN_DROPPED. The events before it go to the caller first;
                // the resync starts in this call only if there are none.
                if count > 0 {
                    resyncPending = true
                    break reading
                }
                resyncing = true
                resynced = true
            case .again where resyncing:
                resyncing = false // the resync is complete; go on with new events
            case .again:
                break reading
            }
        }
        if resynced { return .resynced(count) }
        return count == 0 ? .wouldBlock : .events(count)
    }
}
