import CIIO
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
/// ## Reading with low latency: `readAvailable(timeout:)`
///
/// libiio 0.24's blocking `iio_buffer_refill` (local backend, `local_read`)
/// loops over `poll` and `read(2)` until the *whole* buffer is full, so a
/// scan waits `sampleCount / rate` before anyone sees it. `readAvailable`
/// instead puts the buffer in non-blocking mode
/// (`iio_buffer_set_blocking_mode(false)`), sleeps in `poll(2)` on
/// `iio_buffer_get_poll_fd` (the device node, which the kernel reports
/// readable once `buffer/watermark` scans — 1 by default — are queued), and
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
/// Use from one thread at a time; `cancel()` may be called from any thread.
public final class IIOBuffer: @unchecked Sendable {
    // @unchecked Sendable: reads happen on one thread; `cancel()` only touches
    // the atomic flag, the wake-up pipe and libiio's thread-safe cancel.

    /// The device captured.
    public let device: IIODevice
    /// How many scans one read can return at most.
    public let sampleCount: Int
    /// Where each enabled element sits in a scan.
    public let layout: IIOScanLayout

    let handle: OpaquePointer
    /// What errors name: the device node (local backend), computed once so
    /// reads need not build strings.
    private let subject: String
    private let wakeRead: Int32, wakeWrite: Int32
    private let cancelled = Atomic<Bool>(false)
    private let pollFDs: UnsafeMutablePointer<pollfd>

    /// Scans handed out by the last read start at `storage[0]`; a partial
    /// scan waits at `storage[carryStart..<carryStart+carryCount]`.
    private let storage: UnsafeMutableRawBufferPointer
    private var carryStart = 0, carryCount = 0

    private enum ReadMode { case undecided, polling(fd: Int32), blockingRefill }
    private var mode = ReadMode.undecided

    /// Creates the buffer for the channels enabled now (`IIOChannel.enable()`).
    ///
    /// Fails before touching the device when no channel is enabled or an
    /// enabled channel's format cannot be decoded (libiio 0.24 would divide
    /// by zero on a zero-length format), and with the errno of the open
    /// otherwise: ENOENT names a missing `/dev/iio:deviceN`, EACCES points to
    /// the udev rules, EBUSY means another program holds the device.
    /// The corresponding C function is `iio_device_create_buffer`.
    public init(device: IIODevice, sampleCount: Int) throws(IIOError) {
        let subject = device.context.isLocal ? device.devicePath : device.errorSubject
        guard sampleCount > 0 else {
            throw IIOError(errno: EINVAL, operation: "create a buffer of \(sampleCount) scans", subject: subject,
                           detail: "a buffer holds at least one scan")
        }
        let layout = try IIOScanLayout(enabledChannelsOf: device)
        guard !layout.elements.isEmpty else {
            throw IIOError(errno: EINVAL, operation: "create a buffer for \(device)", subject: subject,
                           detail: "no scan element is enabled: enable channels first")
        }
        let libiioScanSize = try c_iio_device_get_sample_size(device.handle, subject: device.errorSubject).get()
        let wake: (read: Int32, write: Int32)
        switch system_wakeupPipe() {
        case .success(let fds): wake = fds
        case .failure(let e):
            throw IIOError(errno: e.code, operation: "make a wake-up pipe for \(device)'s buffer", subject: subject)
        }
        let created = c_iio_device_create_buffer(device.handle, sampleCount: sampleCount, cyclic: false,
                                                 subject: subject, deviceID: device.description)
        let handle: OpaquePointer
        switch created {
        case .success(let h): handle = h
        case .failure(var error):
            system_close(wake.read)
            system_close(wake.write)
            switch error.errno {
            case ENOENT: error.detail = "the device node is missing: is the driver bound and udev running?"
            case EBUSY: error.detail = "another program is capturing from this device"
            case EACCES, EPERM: if let file = Self.refusedFile(device) { error.subject = file }
            default: break
            }
            throw error
        }
        self.device = device
        self.sampleCount = sampleCount
        self.layout = layout
        self.handle = handle
        self.subject = subject
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        pollFDs = .allocate(capacity: 2)
        pollFDs.initialize(repeating: pollfd(), count: 2)
        storage = .allocate(byteCount: sampleCount * max(libiioScanSize, layout.scanSize) + layout.scanSize,
                            alignment: 8)
    }

    deinit {
        c_iio_buffer_destroy(handle)
        system_close(wakeRead)
        system_close(wakeWrite)
        pollFDs.deallocate()
        storage.deallocate()
    }

    /// A descriptor that polls readable when scans are waiting (the device
    /// node, on the local backend). ENOSYS on backends without one.
    /// The corresponding C function is `iio_buffer_get_poll_fd`.
    public var pollDescriptor: Int32 {
        get throws(IIOError) { try c_iio_buffer_get_poll_fd(handle, subject: subject).get() }
    }

    /// Blocking (the default) or non-blocking `refill()`.
    /// The corresponding C function is `iio_buffer_set_blocking_mode`.
    public func setBlocking(_ blocking: Bool) throws(IIOError) {
        try c_iio_buffer_set_blocking_mode(handle, blocking, subject: subject).get()
    }

    /// One libiio refill: blocking, it waits until all `sampleCount` scans
    /// are in (or the context's timeout); non-blocking, it returns what is
    /// there, 0 bytes when nothing is. Returns the number of bytes, which
    /// `lastRefill` then holds. Prefer `readAvailable(timeout:)`.
    /// The corresponding C function is `iio_buffer_refill`.
    @discardableResult
    public func refill() throws(IIOError) -> Int {
        do {
            return try c_iio_buffer_refill(handle, subject: subject).get()
        } catch {
            throw explained(error)
        }
    }

    /// The bytes of the last `refill()`, in libiio's memory (valid until the
    /// next refill). The corresponding C functions are `iio_buffer_start`
    /// and `iio_buffer_end`.
    public var lastRefill: UnsafeRawBufferPointer { c_iio_buffer_bytes(handle) }

    /// Wakes a `readAvailable` or blocking `refill` waiting on another
    /// thread; it, and every later read, fails with ECANCELED. For stopping
    /// capture: destroy the buffer afterwards.
    /// The corresponding C function is `iio_buffer_cancel`.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        system_writeByte(wakeWrite)
        c_iio_buffer_cancel(handle)
    }

    /// Returns the whole scans that have arrived, waiting for at least one
    /// for up to `timeout` (nil: forever). See the type's documentation for
    /// why this has a latency of one wake-up whatever `sampleCount` is.
    ///
    /// Errors: ETIMEDOUT when no scan came in time (is a trigger set and
    /// firing?), ENODEV when the device went away (its sysfs directory is
    /// gone, or the node reports a hang-up), ECANCELED after `cancel()`.
    /// Allocates nothing unless it throws.
    public func readAvailable(timeout: Duration?) throws(IIOError) -> IIOScans {
        let deadline = timeout.map { system_monotonicNanoseconds() + Self.nanoseconds($0) }
        // The scans handed out last time have been used: the partial scan moves to the front.
        if carryCount > 0, carryStart > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + carryStart, byteCount: carryCount)
        }
        carryStart = 0
        while true {
            if cancelled.load(ordering: .acquiring) { throw cancelledError }
            let fd: Int32?
            switch mode {
            case .undecided: try decideReadMode(); continue
            case .polling(let pollFD): fd = pollFD
            case .blockingRefill: fd = nil
            }
            let count = try refill()
            if count > 0 {
                let scans = append(lastRefill)
                if scans.count > 0 { return scans }
                continue  // only part of a scan so far: wait for the rest
            }
            if let fd {
                try wait(for: fd, until: deadline, timeout: timeout)
            } else if let deadline, system_monotonicNanoseconds() >= deadline {
                throw timedOut(timeout)
            }
        }
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
        for path in candidates {
            if let e = system_openError(path, O_WRONLY), e.code == EACCES || e.code == EPERM { return path }
        }
        if let e = system_openError(device.devicePath, O_RDWR), e.code == EACCES || e.code == EPERM {
            return device.devicePath
        }
        return nil
    }

    private var cancelledError: IIOError {
        IIOError(errno: ECANCELED, operation: "read scans", subject: subject, detail: "capture was cancelled")
    }

    /// Non-blocking refill plus poll where the backend has both; blocking refills otherwise.
    private func decideReadMode() throws(IIOError) {
        do {
            let fd = try pollDescriptor
            try setBlocking(false)
            mode = .polling(fd: fd)
        } catch where error.errno == ENOSYS {
            mode = .blockingRefill
        }
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

    /// Sleeps in poll(2) until the device has data, the wake-up pipe is
    /// written, or the deadline passes.
    private func wait(for fd: Int32, until deadline: Int64?, timeout: Duration?) throws(IIOError) {
        pollFDs[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        pollFDs[1] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        var milliseconds: Int32 = -1
        if let deadline {
            let left = deadline - system_monotonicNanoseconds()
            milliseconds = left <= 0 ? 0 : Int32(clamping: (left + 999_999) / 1_000_000)
        }
        let ready: Int32
        switch system_poll(pollFDs, count: 2, timeoutMilliseconds: milliseconds) {
        case .success(let n): ready = n
        case .failure(let e): throw IIOError(errno: e.code, operation: "wait for scans (poll)", subject: subject)
        }
        if pollFDs[1].revents != 0 || cancelled.load(ordering: .acquiring) { throw cancelledError }
        if ready == 0 {
            if deviceIsGone { throw wentAway }
            throw timedOut(timeout)
        }
        let revents = Int32(pollFDs[0].revents)
        if revents & Int32(POLLIN) == 0 && revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 { throw wentAway }
    }

    /// Whether the device's sysfs directory has disappeared (local backend).
    private var deviceIsGone: Bool {
        guard device.context.isLocal else { return false }
        if case .failure(let e) = system_isDirectory(device.sysfsPath), e.code == ENOENT { return true }
        return false
    }

    private var wentAway: IIOError {
        IIOError(errno: ENODEV, operation: "read scans", subject: subject,
                 detail: "\(device) went away (unplugged, or its driver was unbound)")
    }

    private func timedOut(_ timeout: Duration?) -> IIOError {
        IIOError(errno: ETIMEDOUT, operation: "read scans", subject: subject,
                 detail: "no scan arrived within \(timeout.map { "\($0)" } ?? "the timeout"): is a trigger set and firing, and the sensor's interrupt wired?")
    }

    /// Adds what an errno from a read means for a capture.
    private func explained(_ error: IIOError) -> IIOError {
        var error = error
        switch error.errno {
        case ENODEV: error.detail = "\(device) went away (unplugged, or its driver was unbound)"
        case ETIMEDOUT: error.detail = "the buffer did not fill within the context's timeout: is a trigger set and firing?"
        case EBADF where cancelled.load(ordering: .acquiring): return cancelledError
        default: break
        }
        return error
    }

    private static func nanoseconds(_ d: Duration) -> Int64 {
        let (seconds, attoseconds) = d.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
