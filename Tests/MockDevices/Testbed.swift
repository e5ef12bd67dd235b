// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Dispatch
import CUmockdev
import LibC

/// A umockdev testbed: a fake /sys and /dev in a temporary directory that
/// the real libiio and libevdev see instead of the machine's, through the
/// `LD_PRELOAD` of libumockdev-preload.
///
/// Making one sets `UMOCKDEV_DIR` for the whole process, so tests using
/// testbeds must be serialized (`MockDeviceSuites`), and the process must
/// run under the preload (`UmockdevPreload`). `deinit` releases it
/// (`g_object_unref`), which removes the directory and unsets `UMOCKDEV_DIR`.
///
/// Generic on purpose: IIO devices come from `MockIIODevice` descriptions;
/// evdev nodes can be added from their own descriptions the same way.
public final class Testbed {
    let handle: UnsafeMutablePointer<UMockdevTestbed>

    /// The ioctl handlers of evdev nodes added with `add(_: MockEvdevDevice)`,
    /// by node ("/dev/input/event0"); see `Testbed+Evdev.swift`.
    var evdevHandlers: [String: MockEvdevIoctlHandler] = [:]

    /// Creates an empty testbed. The corresponding C function is `umockdev_testbed_new`.
    /// One testbed at a time in a process: `UMOCKDEV_DIR` is process-wide, so
    /// two live testbeds (suites of different test targets run in parallel
    /// when the whole binary runs under the preload) would see each other's
    /// devices. A testbed waits for the previous one to be released.
    private static let oneAtATime = DispatchSemaphore(value: 1)

    public init() {
        Self.oneAtATime.wait()
        handle = umockdev_testbed_new()
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
        Self.oneAtATime.signal()
    }

    /// The testbed's directory ("/tmp/umockdev.XXXXXX"), holding `sys/` and `dev/`.
    /// The corresponding C function is `umockdev_testbed_get_root_dir`.
    public var rootDirectory: String {
        let p = umockdev_testbed_get_root_dir(handle)
        defer { g_free(p) }
        return p.map { String(cString: $0) } ?? ""
    }

    /// Adds the devices of a umockdev description (`P:`/`N:`/`E:`/`A:` lines,
    /// records separated by blank lines). Attribute values are written as
    /// given: end each with `\n` as the kernel does.
    /// The corresponding C function is `umockdev_testbed_add_from_string`.
    public func add(description: String) throws(TestbedError) {
        var error: UnsafeMutablePointer<GError>? = nil
        if umockdev_testbed_add_from_string(handle, description, &error) == 0 {
            throw TestbedError(consuming: error, doing: "add a device description")
        }
    }

    /// Adds an IIO device (and its data-ready trigger, if it has one).
    public func add(_ device: MockIIODevice) throws(TestbedError) {
        try add(description: device.umockdevDescription)
        if let trigger = device.trigger { try add(description: trigger.umockdevDescription) }
    }

    /// Adds a stand-alone IIO trigger (an hrtimer or sysfs trigger).
    public func add(_ trigger: MockIIOTrigger) throws(TestbedError) {
        try add(description: trigger.umockdevDescription)
    }

    /// Removes a device by its sysfs path ("/sys/devices/…/iio:device0"): its
    /// directory, its /sys/bus link and its /dev node disappear.
    /// The corresponding C function is `umockdev_testbed_remove_device`.
    public func removeDevice(sysfsPath: String) {
        umockdev_testbed_remove_device(handle, sysfsPath)
    }

    /// The pty master standing in for a device node ("/dev/iio:device0"):
    /// what is written to it, the program reads from the node. Owned by the testbed.
    /// The corresponding C function is `umockdev_testbed_get_dev_fd`.
    public func deviceFD(_ node: String) -> Int32? {
        let fd = umockdev_testbed_get_dev_fd(handle, node)
        return fd >= 0 ? fd : nil
    }

    /// Writes bytes into a device node's pty in one `write` where possible:
    /// what a program reading the node receives (IIO scans, evdev
    /// `input_event` records).
    public func write(_ bytes: [UInt8], to node: String) throws(TestbedError) {
        guard let fd = deviceFD(node) else { throw TestbedError("\(node) is not a device node of this testbed") }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { LibC.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestbedError("cannot write to \(node): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// Writes scan bytes into an IIO device node, as the kernel would queue
    /// them. Written in one piece, a scan reaches the reader whole.
    public func writeScans(_ bytes: [UInt8], to node: String) throws(TestbedError) {
        try write(bytes, to: node)
    }

    /// Writes each scan only while the node takes it at once, and says
    /// whether all went: a reader that stopped reading the node (an IIO
    /// source that found its trigger silent and polls `in_*_raw` instead)
    /// leaves the rest unwritten, where `writeScans` would wait for ever.
    public func offerScans(_ scans: [[UInt8]], to node: String) throws(TestbedError) -> Bool {
        guard let fd = deviceFD(node) else { throw TestbedError("\(node) is not a device node of this testbed") }
        for scan in scans {
            // Room for a few hundred bytes at least once writable: a scan is tens.
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT) != 0 else { return false }
            try write(scan, to: node)
        }
        return true
    }

    /// Where a /sys or /dev path of the testbed really is on disk.
    public func realPath(_ path: String) -> String { rootDirectory + path }

    /// Reads a file of the fake sysfs ("/sys/bus/iio/devices/iio:device0/buffer/length"),
    /// as the program left it: trailing newlines and NULs (libiio writes the
    /// terminating NUL) removed. Nil when it does not exist.
    public func readFile(_ path: String) -> String? {
        guard let f = fopen(realPath(path), "re") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        while let last = bytes.last, last == 0 || last == 10 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces a file of the fake sysfs with `text` exactly as given.
    ///
    /// In place, and never empty on the way: a sysfs attribute answers each
    /// read whole, and a program may keep one open and `pread` it while a
    /// test changes it (TiltMaze's polled IIO source does). Truncating first,
    /// as `fopen(…, "w")` does, let such a read find the file empty on a
    /// loaded machine, and the source stopped on it. So the new text is
    /// written over the old in one `pwrite`, and only then is the file cut
    /// to its length: a read in between sees the new value, ended by its
    /// newline, with what is left of the old after it.
    public func writeFile(_ path: String, _ text: String) throws(TestbedError) {
        let fd = open(realPath(path), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TestbedError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw TestbedError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Changes a fake file's permission bits (e.g. 0o000 for "permission denied").
    public func setPermissions(_ path: String, _ mode: mode_t) throws(TestbedError) {
        if chmod(realPath(path), mode) != 0 {
            throw TestbedError("cannot chmod \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A testbed operation that failed, with umockdev's or the system's message.
public struct TestbedError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    /// Takes over a GError (and frees it).
    init(consuming error: UnsafeMutablePointer<GError>?, doing what: String) {
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
        if let error { g_error_free(error) }
        description = "umockdev: cannot \(what): \(message)"
    }
}
