// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO
import Synchronization
import SystemCalls
import SystemPackage
import LibC

/// A capture buffer on a device: the enabled scan elements, read scan by scan.
///
/// Creating it (`iio_device_create_buffer`) opens the device node, writes
/// the enabled channels' `scan_elements/*_en`, `buffer/length` and
/// `buffer/enable`; destroying it (`deinit`, `iio_buffer_destroy`) disables
/// the buffer and the channels and closes the node. With the local backend
/// and a kfifo driver (every IMU) libiio 0.24 asks for `sampleCount × 4`
/// scans of kernel buffer ("High-speed mode not enabled" on stderr is that
/// fallback, not an error).
///
/// ## Reading with low latency: `read(waitingUpTo:)`
///
/// libiio 0.24's blocking `iio_buffer_refill` (local backend, `local_read`)
/// loops over `poll` and `read(2)` until the *whole* buffer is full, so a
/// scan waits `sampleCount / rate` before anyone sees it. `readAvailable`
/// instead puts the buffer in non-blocking mode
/// (`iio_buffer_set_blocking_mode(false)`), sleeps in `poll(2)` on
/// `iio_buffer_get_poll_fd` (the device node, which the kernel reports
/// readable once `buffer/watermark` scans are queued) and
/// on a wake-up pipe of its own (so `cancel()` ends the wait at once), and
/// then calls `iio_buffer_refill`, which in that mode does one `read(2)` and
/// returns what is there: one scan if one has arrived, more if the caller
/// was late, never waiting for the rest. Latency is therefore one wake-up,
/// independent of `sampleCount`, which only bounds how many scans one call
/// can return. Verified against a umockdev pty: a single scan written is
/// returned at once from a 64-scan buffer.
///
/// Why this rather than `read(2)` on `/dev/iio:deviceN` ourselves: the
/// kernel lets one file description open the node at a time, and libiio's
/// buffer holds it, so a direct read would have to borrow libiio's
/// descriptor and step around its API; with non-blocking refill we get the
/// same syscalls (`poll`, one `read`) through libiio's contract. The one
/// thing refill does not do is keep a partial scan — the kernel never
/// returns one, but a pty can — so each read is copied (a few dozen bytes
/// per scan) into memory owned here, where a partial scan waits for its
/// rest. Backends without non-blocking mode or a poll descriptor (the
/// network backend answers ENOSYS) fall back to blocking refills: there,
/// latency is `sampleCount / rate`, so create remote buffers with few scans.
///
/// ## The watermark
///
/// libiio 0.24's local backend writes `buffer/watermark` = `sampleCount`
/// when it creates the buffer, so the kernel would wake the reader only once
/// that many scans are queued: 64 scans are 320 ms at 200 Hz, and a sensor
/// reporting slowly may seem to send nothing at all. (Seen on the real
/// HID sensor-hub drivers in the qemu tier; a file standing in for sysfs
/// never showed it.) So a local buffer is switched off, given a watermark of
/// 1 and switched on again right after libiio made it, keeping its
/// `4 × sampleCount` scans of kernel buffer as slack; the watermark found
/// before is put back when the buffer is destroyed.
///
/// Use from one thread at a time; `cancel()` may be called from any thread.
public final class IIOBuffer: @unchecked Sendable {
    // @unchecked Sendable: reads happen on one thread; `cancel()` only touches
    // the atomic flag, the wake-up pipe and libiio's thread-safe cancel.

    /// The device captured.
    public var device: IIODevice { owner.device }
    /// How many scans one read can return at most.
    public let sampleCount: Int
    /// Where each enabled element sits in a scan.
    public let layout: IIOScanLayout

    /// The libiio buffer; destroyed (and the watermark put back) when this goes.
    private let owner: IIOBufferHandle
    var handle: OpaquePointer { owner.pointer }
    /// What errors name: the device node (local backend), computed once so
    /// reads need not build strings.
    private let subject: String
    private let wakeup: WakeupPipe
    private let cancelled = Atomic<Bool>(false)
    /// The node to poll for scans; nil where the backend has none (network):
    /// reads then wait inside blocking refills.
    private let pollDescriptor: FileDescriptor?
    private let pollEntries: UnsafeMutableBufferPointer<pollfd>

    /// Scans handed out by the last read start at `storage[0]`; a partial
    /// scan waits at `storage[carryStart..<carryStart+carryCount]`.
    private let storage: UnsafeMutableRawBufferPointer
    private var carryStart = 0, carryCount = 0

    /// Creates the buffer for the channels enabled now (`IIOChannel.enable()`)
    /// and puts it in non-blocking mode where the backend allows.
    ///
    /// Fails before touching the device when no channel is enabled or an
    /// enabled channel's format cannot be decoded (libiio 0.24 would divide
    /// by zero on a zero-length format), and with the errno of the open
    /// otherwise: ENOENT names a missing `/dev/iio:deviceN`, EACCES the file
    /// that refused, EBUSY means another program holds the device.
    /// The corresponding C function is `iio_device_create_buffer`.
    public init(device: IIODevice, sampleCount: Int) throws(IIOError) {
        let subject = device.context.isLocal ? device.devicePath : device.errorSubject
        guard sampleCount > 0 else {
            throw IIOError(errno: EINVAL, operation: "create a buffer of \(sampleCount) scans", path: subject,
                           detail: "a buffer holds at least one scan")
        }
        let layout = try IIOScanLayout(enabledChannelsOf: device)
        guard !layout.elements.isEmpty else {
            throw IIOError(errno: EINVAL, operation: "create a buffer for \(device)", path: subject,
                           detail: "no scan element is enabled: enable channels first")
        }
        let libiioScanSize = try c_iio_device_get_sample_size(device.handle, path: device.errorSubject).get()
        let wakeup: WakeupPipe
        do {
            wakeup = try WakeupPipe()
        } catch {
            throw IIOError(errno: error.rawValue, operation: "make a wake-up pipe for \(device)'s buffer", path: subject)
        }
        let foundWatermark = device.context.isLocal ? try? device.readBufferAttribute("watermark") : nil
        let created = c_iio_device_create_buffer(device.handle, sampleCount: sampleCount, cyclic: false,
                                                 path: subject, deviceID: device.description)
        // From here a throw destroys the buffer (`owner`) and closes the pipe (`wakeup`) by itself.
        let owner: IIOBufferHandle
        switch created {
        case .success(let h):
            owner = IIOBufferHandle(h, device: device, watermark: foundWatermark.map(trimmedAttributeText))
        case .failure(var error):
            switch error.errno {
            case ENOENT: error.detail = "the device node is missing: is the driver bound and udev running?"
            case EBUSY: error.detail = "another program is capturing from this device"
            case EACCES, EPERM: if let file = Self.refusedFile(device) { error.path = file }
            default: break
            }
            throw error
        }
        // Non-blocking refill plus poll where the backend has both; blocking refills otherwise.
        var pollDescriptor: FileDescriptor?
        switch c_iio_buffer_get_poll_fd(owner.pointer, path: subject) {
        case .success(let fd):
            if case .failure(let error) = c_iio_buffer_set_blocking_mode(owner.pointer, false, path: subject) {
                throw error
            }
            pollDescriptor = FileDescriptor(rawValue: fd)
            if foundWatermark != nil, case .failure(let error) = Self.wakeOnEveryScan(device) {
                throw error
            }
        case .failure(let error) where error.errno == ENOSYS:
            pollDescriptor = nil
        case .failure(let error):
            throw error
        }
        self.sampleCount = sampleCount
        self.layout = layout
        self.owner = owner
        self.subject = subject
        self.wakeup = wakeup
        self.pollDescriptor = pollDescriptor
        pollEntries = .allocate(capacity: 2)
        pollEntries.initialize(repeating: pollfd())
        storage = .allocate(byteCount: sampleCount * max(libiioScanSize, layout.scanSize) + layout.scanSize,
                            alignment: 8)
    }

    /// Makes the kernel wake the reader as soon as one scan is queued (see
    /// "The watermark"): off, watermark 1, on again. The kernel takes a new
    /// watermark only while the buffer is off.
    private static func wakeOnEveryScan(_ device: IIODevice) -> Result<Void, IIOError> {
        do throws(IIOError) {
            guard let now = Int(trimmedAttributeText(try device.readBufferAttribute("watermark"))), now > 1 else {
                return .success(())
            }
            try device.writeAttribute("buffer/enable", "0")
            try device.writeBufferAttribute("watermark", "1")
            try device.writeAttribute("buffer/enable", "1")
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    deinit {
        // The buffer and the pipe release themselves after this (`IIOBufferHandle`, `WakeupPipe`).
        pollEntries.deallocate()
        storage.deallocate()
    }

    /// Whether reads wait in `poll` (the local backend): only such buffers
    /// can be waited on together (`waitForAny`).
    public var isPollable: Bool { pollDescriptor != nil }

    /// Blocking or non-blocking `refill()`. Pollable buffers start
    /// non-blocking, which `read(waitingUpTo:)` relies on: set blocking only
    /// to call `refill()` yourself.
    /// The corresponding C function is `iio_buffer_set_blocking_mode`.
    public func setBlocking(_ blocking: Bool) throws(IIOError) {
        try c_iio_buffer_set_blocking_mode(handle, blocking, path: subject).get()
    }

    /// One libiio refill: in the non-blocking mode a pollable buffer is in,
    /// it returns what is there, 0 bytes when nothing is; otherwise it waits
    /// until all `sampleCount` scans are in (or the context's timeout).
    /// Returns the number of bytes, which `lastRefill` then holds. Prefer
    /// `read(waitingUpTo:)`. The corresponding C function is `iio_buffer_refill`.
    @discardableResult
    public func refill() throws(IIOError) -> Int {
        do {
            return try c_iio_buffer_refill(handle, path: subject).get()
        } catch {
            throw explained(error)
        }
    }

    /// The bytes of the last `refill()`, in libiio's memory (valid until the
    /// next refill). The corresponding C functions are `iio_buffer_start`
    /// and `iio_buffer_end`.
    public var lastRefill: UnsafeRawBufferPointer { c_iio_buffer_bytes(handle) }

    /// Ends a `read` or `waitForAny` waiting on another thread, which then
    /// reports `.cancelled`, as does every later read. For stopping
    /// capture: destroy the buffer afterwards. Any thread.
    /// The corresponding C function is `iio_buffer_cancel`.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        wakeup.wake()
        c_iio_buffer_cancel(handle)
    }

    /// Switches capture off, or on again, keeping this buffer and its node:
    /// a driver refuses direct reads of its raw values (EBUSY) while its
    /// buffer runs, so polling a device whose trigger stays silent needs it
    /// off. Destroying the buffer afterwards does what it always does.
    /// libiio 0.24 has no call for this (it writes the attribute when it
    /// creates and destroys a buffer); this writes `buffer/enable`.
    public func setEnabled(_ enabled: Bool) throws(IIOError) {
        try device.writeBufferAttribute("enable", enabled ? "1" : "0")
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Returns the whole scans that have arrived, waiting for at least one
    /// for up to `timeout` (nil: for ever; `.zero`: not at all). See the
    /// type's documentation for why this has a latency of one wake-up
    /// whatever `sampleCount` is.
    ///
    /// No scan in time is `.nothingYet`, and `cancel()` is `.cancelled`:
    /// outcomes, not errors. Errors are failures: ENODEV when the device went
    /// away (its sysfs directory is gone, or the node hung up), or the errno
    /// of a read. Allocates nothing unless it throws.
    public func read(waitingUpTo timeout: Duration?) throws(IIOError) -> IIOReadOutcome {
        let deadline = timeout.map { MonotonicClock.now() + $0.nanoseconds }
        // The scans handed out last time have been used: the partial scan moves to the front.
        if carryCount > 0, carryStart > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + carryStart, byteCount: carryCount)
        }
        carryStart = 0
        while true {
            if isCancelled { return .cancelled }
            let count: Int
            do {
                count = try refill()
            } catch where error.errno == ECANCELED || (error.errno == EBADF && isCancelled) {
                return .cancelled
            }
            if count > 0 {
                let scans = append(lastRefill)
                if scans.count > 0 { return .scans(scans) }
                continue  // only part of a scan so far: wait for the rest
            }
            if let pollDescriptor {
                switch try wait(for: pollDescriptor, until: deadline) {
                case .ready: continue
                case .timedOut: return .nothingYet
                case .cancelled: return .cancelled
                }
            } else if let deadline, MonotonicClock.now() >= deadline {
                return .nothingYet
            }
        }
    }

    /// Sleeps until any of `buffers` has scans to read, any is cancelled, or
    /// `timeout` passes (nil: for ever): one `poll` over every buffer's node
    /// and wake-up pipe, so the halves of a split chip wait together and a
    /// `cancel()` of any ends the wait. Every buffer must be pollable.
    /// ENODEV when a device went away. Allocates nothing.
    public static func waitForAny(_ buffers: [IIOBuffer], timeout: Duration?) throws(IIOError) -> IIOWaitOutcome {
        precondition(buffers.allSatisfy(\.isPollable), "waitForAny needs buffers with a poll descriptor")
        if buffers.contains(where: \.isCancelled) { return .cancelled }
        let count = buffers.count * 2
        let milliseconds = Self.pollTimeout(until: timeout.map { MonotonicClock.now() + $0.nanoseconds })
        let result: Result<Int, Errno> = withUnsafeTemporaryAllocation(of: pollfd.self, capacity: count) { entries in
            for (i, buffer) in buffers.enumerated() {
                entries[2 * i] = Poll.entry(buffer.pollDescriptor!, .readable)
                entries[2 * i + 1] = Poll.entry(buffer.wakeup.readEnd, .readable)
            }
            let result = Poll.wait(entries, timeoutMilliseconds: milliseconds)
            for i in buffers.indices { buffers[i].pollEntries[0] = entries[2 * i] }
            return result
        }
        if buffers.contains(where: \.isCancelled) { return .cancelled }
        let ready: Int
        switch result {
        case .success(let n): ready = n
        case .failure(let e): throw IIOError(errno: e.rawValue, operation: "wait for scans (poll)", path: buffers[0].subject)
        }
        for buffer in buffers where Poll.returned(buffer.pollEntries[0]).isDead { throw buffer.wentAway }
        if ready == 0 {
            if let gone = buffers.first(where: \.deviceIsGone) { throw gone.wentAway }
            return .timedOut
        }
        return .ready
    }

    // MARK: Internals

    /// Which of the files buffer creation writes or opens this process may
    /// not use, so a permission error names it: libiio's errno alone does
    /// not say whether `buffer/enable`, a `scan_elements/*_en` or the node
    /// refused. Opening a sysfs attribute without writing changes nothing;
    /// the node is free again once libiio's attempt has failed.
    private static func refusedFile(_ device: IIODevice) -> String? {
        guard device.context.isLocal else { return nil }
        var candidates = [device.bufferAttributePath("enable"), device.bufferAttributePath("length")]
        for channel in device.channels where channel.isScanElement && channel.isEnabled {
            candidates.append(device.attributePath("scan_elements/\(channel.isOutput ? "out" : "in")_\(channel.id)_en"))
        }
        func refused(_ path: String, _ mode: FileDescriptor.AccessMode) -> Bool {
            let e = FilePath(path).openError(mode)
            return e == .permissionDenied || e == .notPermitted
        }
        if let file = candidates.first(where: { refused($0, .writeOnly) }) { return file }
        return refused(device.devicePath, .readWrite) ? device.devicePath : nil
    }

    /// Copies freshly read bytes after the waiting partial scan and returns
    /// the whole scans now at the front of `storage`.
    private func append(_ bytes: UnsafeRawBufferPointer) -> IIOScans {
        let base = storage.baseAddress!
        let room = storage.count - carryCount
        assert(bytes.count <= room, "a refill returned more than the buffer holds")
        let n = min(bytes.count, room)
        if n > 0 { (base + carryCount).copyMemory(from: bytes.baseAddress!, byteCount: n) }
        let total = carryCount + n
        let whole = total / layout.scanSize * layout.scanSize
        carryStart = whole
        carryCount = total - whole
        return IIOScans(bytes: UnsafeRawBufferPointer(start: base, count: whole), scanSize: layout.scanSize)
    }

    /// The poll timeout that ends at `deadline` (rounded up, so a wait never
    /// ends before it); -1 for none.
    private static func pollTimeout(until deadline: Int64?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - MonotonicClock.now()
        return left <= 0 ? 0 : Int32(clamping: (left + 999_999) / 1_000_000)
    }

    /// Sleeps in poll(2) until the device has data, the wake-up pipe is
    /// written, or the deadline passes.
    private func wait(for fd: FileDescriptor, until deadline: Int64?) throws(IIOError) -> IIOWaitOutcome {
        pollEntries[0] = Poll.entry(fd, .readable)
        pollEntries[1] = Poll.entry(wakeup.readEnd, .readable)
        let ready: Int
        switch Poll.wait(pollEntries, timeoutMilliseconds: Self.pollTimeout(until: deadline)) {
        case .success(let n): ready = n
        case .failure(let e): throw IIOError(errno: e.rawValue, operation: "wait for scans (poll)", path: subject)
        }
        if Poll.returned(pollEntries[1]) != [] || isCancelled { return .cancelled }
        if ready == 0 {
            if deviceIsGone { throw wentAway }
            return .timedOut
        }
        if Poll.returned(pollEntries[0]).isDead { throw wentAway }
        return .ready
    }

    /// Whether the device's sysfs directory has disappeared (local backend).
    private var deviceIsGone: Bool {
        guard device.context.isLocal else { return false }
        if case .failure(.noSuchFileOrDirectory) = FilePath(device.sysfsPath).access(.exists) { return true }
        return false
    }

    private var wentAway: IIOError {
        IIOError(errno: ENODEV, operation: "read scans", path: subject,
                 detail: "\(device) went away (unplugged, or its driver was unbound)")
    }

    /// Adds what an errno from a read means for a capture.
    private func explained(_ error: IIOError) -> IIOError {
        var error = error
        switch error.errno {
        case ENODEV: error.detail = "\(device) went away (unplugged, or its driver was unbound)"
        case ETIMEDOUT: error.detail = "the buffer did not fill within the context's timeout: is a trigger set and firing?"
        default: break
        }
        return error
    }
}

/// What one `IIOBuffer.read(waitingUpTo:)` brought.
public enum IIOReadOutcome {
    /// Whole scans, in the order the device captured them; valid until the next read.
    case scans(IIOScans)
    /// The wait ended without a whole scan (is a trigger set and firing?).
    case nothingYet
    /// `cancel()` was called: stop reading, then destroy the buffer.
    case cancelled

    /// The scans, or none.
    public var received: IIOScans {
        if case .scans(let scans) = self { return scans }
        return IIOScans(bytes: UnsafeRawBufferPointer(start: nil, count: 0), scanSize: 1)
    }
}

/// How a wait for scans ended.
public enum IIOWaitOutcome: Equatable, Sendable {
    /// Scans can be read (or a read will report an error).
    case ready
    /// The timeout passed first.
    case timedOut
    /// A buffer was cancelled.
    case cancelled
}

/// A libiio buffer with one owner. When the owner lets it go it is destroyed
/// (libiio disables it, the channels and closes the node) and then the
/// watermark found before libiio changed it is put back: the kernel takes a
/// watermark only while the buffer is off, so the order matters.
struct IIOBufferHandle: ~Copyable {
    let pointer: OpaquePointer
    /// The device, kept alive with its context until the buffer is gone.
    let device: IIODevice
    /// The watermark to put back (local buffers), nil to leave it.
    let watermark: String?

    init(_ pointer: OpaquePointer, device: IIODevice, watermark: String?) {
        self.pointer = pointer
        self.device = device
        self.watermark = watermark
    }

    deinit {
        c_iio_buffer_destroy(pointer)
        if let watermark { try? device.writeBufferAttribute("watermark", watermark) }
    }
}
