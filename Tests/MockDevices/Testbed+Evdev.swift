// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CUmockdev
#if canImport(Glibc)
import Glibc
#endif

/// Evdev input nodes in a testbed: add one, feed it `input_event` records,
/// unplug it.
///
/// The node is umockdev's pty for `/dev/input/eventN`, put in raw mode
/// (`cfmakeraw`; umockdev 0.17 already turns off canonical mode, echo,
/// signals and flow control, and all 256 byte values pass, but records are
/// binary and must never be translated), with a `MockEvdevIoctlHandler`
/// answering libevdev's ioctls.
///
/// The pty is not the kernel's evdev buffer: a reader can see part of a
/// record if a record is split between two pty buffers or the pty's 4 KiB
/// line buffer fills, and libevdev then fails the read with EINVAL. So
/// `writeEvents` writes at most `eventsPerWrite` records per `write`, and
/// a test should not let more than about 170 records (4 KiB) wait unread.
extension Testbed {
    /// Records per `write(2)` to the pty: 64 × 24 bytes stays below the
    /// 1792-byte piece in which the tty layer copies a write, so a whole
    /// chunk reaches the reader at once.
    public static let eventsPerWrite = 64

    /// Adds an evdev node (its `inputN` and `eventN` sysfs devices and
    /// `/dev/input/eventN`) and attaches the ioctl handler that answers for
    /// it, which it returns (also found with `evdevHandler(for:)`).
    @discardableResult
    public func add(_ device: MockEvdevDevice) throws(TestbedError) -> MockEvdevIoctlHandler {
        // The handler first: a program scanning for devices (a game waiting
        // for its controller to come back) may open the node the moment it
        // appears, and the preload ends a process that opens an emulated node
        // with no handler attached yet.
        let handler = MockEvdevIoctlHandler(device: device)
        try UmockdevIoctlGlue.attach(handler, to: device.devicePath, in: handle)
        try add(description: device.umockdevDescription)
        try makeRaw(device.devicePath)
        evdevHandlers[device.devicePath] = handler
        return handler
    }

    /// The ioctl handler of an evdev node added with `add(_:)`.
    public func evdevHandler(for node: String) -> MockEvdevIoctlHandler? { evdevHandlers[node] }

    /// Sends events from the device: records the state they leave (for
    /// `EVIOCGABS`, `EVIOCGKEY` after a SYN_DROPPED), then writes the
    /// records into the node's pty, `eventsPerWrite` per `write`.
    ///
    /// With `waitUntilQueued`, returns once the bytes are in the pty's input
    /// queue where a reader's `read` finds them (up to 2 s), so a test that
    /// then reads sees them all, and libevdev's drain after a SYN_DROPPED
    /// sees everything written; pass false when another thread is reading
    /// (the queue would never fill). Events written before the node is
    /// opened wait in the queue for the reader.
    public func writeEvents(_ events: [MockInputEvent], to node: String, waitUntilQueued: Bool = true) throws(TestbedError) {
        guard let handler = evdevHandlers[node] else {
            throw TestbedError("\(node) is not an evdev node of this testbed (add it with add(_: MockEvdevDevice))")
        }
        handler.record(events)
        let before = waitUntilQueued ? queuedInputBytes(node) : nil
        var start = 0
        while start < events.count {
            let end = min(start + Self.eventsPerWrite, events.count)
            try write(events[start..<end].flatMap(\.bytes), to: node)
            start = end
        }
        if let before { waitForQueue(node, atLeast: before + events.count * MockInputEvent.size) }
    }

    /// Unplugs an evdev device as the kernel does: its ioctls and reads fail
    /// with ENODEV from now on, a reader waiting in `poll` wakes up, and its
    /// sysfs devices and `/dev` node disappear.
    public func unplug(_ device: MockEvdevDevice) throws(TestbedError) {
        guard let handler = evdevHandlers[device.devicePath] else {
            throw TestbedError("\(device.devicePath) is not an evdev node of this testbed")
        }
        handler.unplug()
        // One byte wakes a reader in poll(); its read then fails with ENODEV.
        try write([0], to: device.devicePath)
        removeDevice(sysfsPath: device.sysfsEventPath)
        removeDevice(sysfsPath: device.sysfsInputPath)
    }

    /// Bytes written to a node that no reader has taken yet (`FIONREAD` on
    /// the pty's reading side), or nil when that cannot be asked.
    public func queuedInputBytes(_ node: String) -> Int? {
        guard let fd = openReadingSide(node) else { return nil }
        defer { close(fd) }
        var count: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &count) == 0 else { return nil }
        return Int(count)
    }

    private func waitForQueue(_ node: String, atLeast bytes: Int) {
        for _ in 0..<2000 {
            guard let queued = queuedInputBytes(node), queued < bytes else { return }
            usleep(1000)
        }
    }

    /// Opens the pty's slave without making it a controlling terminal, or
    /// nil. Opened by the testbed path of the node's symlink, not by
    /// "/dev/pts/N": the preload routes ioctls on any descriptor opened under
    /// /dev through umockdev's default handler, which fails FIONREAD with ENOTTY.
    private func openReadingSide(_ node: String) -> Int32? {
        let fd = open(realPath(node), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// Puts a node's pty in raw mode (`cfmakeraw`): bytes pass unchanged.
    private func makeRaw(_ node: String) throws(TestbedError) {
        guard let fd = deviceFD(node) else { throw TestbedError("\(node) has no pty in this testbed") }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            throw TestbedError("cannot read the terminal settings of \(node)'s pty: \(String(cString: strerror(errno)))")
        }
        cfmakeraw(&settings)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            throw TestbedError("cannot make \(node)'s pty raw: \(String(cString: strerror(errno)))")
        }
    }
}
