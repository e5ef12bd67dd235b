// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CUmockdev
import LibC

/// Evdev input nodes in a testbed: add one, feed it `input_event` records,
/// unplug it.
///
/// The node is umockdev's pty for `/dev/input/eventN`, put in raw mode
/// (`cfmakeraw`; umockdev 0.17 already turns off canonical mode, echo,
/// signals and flow control, and all 256 byte values pass, but records are
/// binary and must never be translated), with a `MockEvdevIoctlHandler`
/// answering libevdev's ioctls.
///
/// The pty is not the kernel's evdev buffer, which only ever hands a reader
/// whole records. A pty is a byte stream: the tty layer moves a write to
/// the reader's side later, on a kernel worker, and only as much as its
/// 4,096-byte line buffer has room for, a size that is not a multiple of a
/// 24-byte record. Once the bytes waiting for the reader near 4 KiB, a
/// read can end inside a record, and libevdev fails it with EINVAL. So
/// `writeEvents` writes at most `eventsPerWrite` records per `write`, and,
/// while a reader is taking them, holds each write back until the reader
/// has taken the last (see `writeEvents`).
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
            // With a reader taking the records, a chunk waits until the
            // reader has taken everything before it, so no more than one
            // chunk is ever unread: far below the 4 KiB at which a read
            // could end inside a record, however slowly a loaded machine
            // runs the reader.
            if before == nil && start > 0 { waitForQueue(node, atMost: 0) }
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
        try wakeReaders(of: device)
        removeDevice(sysfsPath: device.sysfsEventPath)
        removeDevice(sysfsPath: device.sysfsInputPath)
    }

    /// Unplugs `device` (its reads and ioctls fail with ENODEV from then on)
    /// in the middle of the next read: after that read has passed the
    /// handler's check, before it reads the pty. The sysfs devices stay.
    public func unplugDuringNextRead(_ device: MockEvdevDevice) throws(TestbedError) {
        guard let handler = evdevHandlers[device.devicePath], let fd = deviceFD(device.devicePath) else {
            throw TestbedError("\(device.devicePath) is not an evdev node of this testbed")
        }
        let wake = Self.wakeRecord(for: device)
        handler.beforeNextRead {
            handler.unplug()
            _ = wake.withUnsafeBytes { LibC.write(fd, $0.baseAddress!, $0.count) }
        }
    }

    /// Wakes whoever waits in poll() on an unplugged device's node, so that
    /// its next read fails with ENODEV.
    ///
    /// A read can, though, be under way already: past the handler's check,
    /// not yet at the pty (a reader drains until EAGAIN, so such a read
    /// follows every batch it takes). That read takes whatever wakes the
    /// others, so it must be a whole record, and one libevdev drops, as it
    /// drops every event of a type the device does not declare. A single
    /// byte, which this once wrote, ended such a read with EINVAL ("part of
    /// an input_event") on a loaded machine.
    private func wakeReaders(of device: MockEvdevDevice) throws(TestbedError) {
        try write(Self.wakeRecord(for: device), to: device.devicePath)
    }

    private static func wakeRecord(for device: MockEvdevDevice) -> [UInt8] {
        precondition(!device.eventTypes.contains(LinuxInput.EV_SND),
                     "\(device.name) declares EV_SND: unplugging needs an event type the device lacks to wake its readers")
        return MockInputEvent(nanoseconds: 0, type: LinuxInput.EV_SND, code: 0, value: 0).bytes
    }

    /// Bytes written to a node that no reader has taken yet (`FIONREAD` on
    /// the pty's reading side), or nil when that cannot be asked.
    ///
    /// A write reaches the reading side later, on a kernel worker: FIONREAD
    /// alone, asked just after a write, mostly answers 0 (measured here: 4
    /// times in 5). A `poll` on the reading side first waits for that
    /// worker when nothing has arrived yet, so the count includes every
    /// byte written before.
    public func queuedInputBytes(_ node: String) -> Int? {
        guard let fd = openReadingSide(node) else { return nil }
        defer { close(fd) }
        var settle = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&settle, 1, 0)
        var count: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &count) == 0 else { return nil }
        return Int(count)
    }

    /// Waits (up to 2 s) until at least `bytes` wait unread.
    private func waitForQueue(_ node: String, atLeast bytes: Int) {
        waitForQueue(node, milliseconds: 2_000) { $0 >= bytes }
    }

    /// Waits (up to 20 s: a reader that has stopped must not hang the test,
    /// which then fails on what it did not read) until no more than `bytes`
    /// wait unread.
    private func waitForQueue(_ node: String, atMost bytes: Int) {
        waitForQueue(node, milliseconds: 20_000) { $0 <= bytes }
    }

    /// Looks at the bytes waiting unread every millisecond until `done`
    /// holds, the count cannot be had, or `milliseconds` pass.
    private func waitForQueue(_ node: String, milliseconds: Int, until done: (Int) -> Bool) {
        for _ in 0..<milliseconds {
            guard let queued = queuedInputBytes(node), !done(queued) else { return }
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
