// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CEvdev
import SystemCalls
import SystemPackage
import LibC

// The one place each fallible libevdev call of this module is made (the
// swift-system habit): "negative errno" becomes a typed `EvdevError` right
// here, and EINTR is retried here. System calls go through SystemCalls and
// swift-system. Getters that cannot fail (names, ids, bits) are called where
// they are used.

/// `libevdev_new_from_fd`: returns a negative errno on failure. It asks the
/// kernel for the device's name, ids, bits, absinfo and state (ioctls), so
/// a file that is not an evdev node fails here, usually with ENOTTY.
func c_libevdev_new_from_fd(_ fd: Int32, path: String) -> Result<OpaquePointer, EvdevError> {
    var dev: OpaquePointer?
    let rc = libevdev_new_from_fd(fd, &dev)
    if rc < 0 || dev == nil {
        let code = rc < 0 ? -rc : EINVAL
        let detail = code == ENOTTY || code == EINVAL
            ? "it is not an evdev input node (expected /dev/input/eventN)" : nil
        return .failure(EvdevError(errno: code, operation: "read its input device description", path: path, detail: detail))
    }
    return .success(dev!)
}

/// `libevdev_set_clock_id`: 0 or a negative errno.
func c_libevdev_set_clock_id(_ dev: OpaquePointer, _ clock: EvdevClock, path: String) -> Result<Void, EvdevError> {
    let rc = libevdev_set_clock_id(dev, clock.rawValue)
    if rc < 0 { return .failure(EvdevError(errno: -rc, operation: "set its event clock to \(clock)", path: path)) }
    return .success(())
}

/// `libevdev_grab` with `LIBEVDEV_GRAB` or `LIBEVDEV_UNGRAB`: 0 or a negative errno.
func c_libevdev_grab(_ dev: OpaquePointer, _ grab: Bool, path: String) -> Result<Void, EvdevError> {
    let rc = libevdev_grab(dev, grab ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
    if rc < 0 {
        let detail = -rc == EBUSY ? "another program has grabbed it" : nil
        return .failure(EvdevError(errno: -rc, operation: grab ? "grab it" : "release its grab", path: path, detail: detail))
    }
    return .success(())
}

/// What `libevdev_next_event` reported.
enum NextEventStatus {
    /// `LIBEVDEV_READ_STATUS_SUCCESS`: an event (in normal mode).
    case event
    /// `LIBEVDEV_READ_STATUS_SYNC`: in normal mode the event is SYN_DROPPED;
    /// in sync mode it is one of the events that restate the device's state.
    case sync
    /// -EAGAIN: nothing more now (in sync mode: the resync is complete).
    case again
}

/// `libevdev_next_event` with `LIBEVDEV_READ_FLAG_NORMAL` or
/// `LIBEVDEV_READ_FLAG_SYNC`, retried on EINTR. Allocates nothing unless it fails.
func c_libevdev_next_event(_ dev: OpaquePointer, sync: Bool, into event: inout input_event,
                           path: String) -> Result<NextEventStatus, EvdevError> {
    let flags = sync ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
    while true {
        let rc = libevdev_next_event(dev, flags, &event)
        switch rc {
        case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue): return .success(.event)
        case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue): return .success(.sync)
        case -EAGAIN: return .success(.again)
        case -EINTR: continue
        default:
            let code = rc < 0 ? -rc : EIO
            let detail = code == EINVAL ? "the node returned part of an input_event (not an evdev node?)" : nil
            return .failure(EvdevError(errno: code, operation: sync ? "read its state after dropped events" : "read events",
                                       path: path, detail: detail))
        }
    }
}

/// `libevdev_has_event_pending`: whether libevdev holds events or the
/// descriptor is readable now (a `poll` with no wait).
func c_libevdev_has_event_pending(_ dev: OpaquePointer, path: String) -> Result<Bool, EvdevError> {
    let rc = libevdev_has_event_pending(dev)
    if rc < 0 { return .failure(EvdevError(errno: -rc, operation: "check for pending events", path: path)) }
    return .success(rc > 0)
}
