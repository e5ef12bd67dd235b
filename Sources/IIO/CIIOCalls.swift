// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO
import LibC
import SystemCalls

// The one place each fallible libiio call is made (the swift-system habit):
// libiio's "NULL and errno" or "negative errno" becomes a typed `IIOError`
// right here, never at call sites. Getters that cannot fail (ids, names,
// counts) are called directly where they are used.

/// `iio_create_local_context` / `iio_create_context_from_uri`: NULL with errno set on failure.
func c_iio_create_context(uri: String?) -> Result<OpaquePointer, IIOError> {
    errno = 0
    let ctx: OpaquePointer?
    if let uri {
        ctx = iio_create_context_from_uri(uri)
    } else {
        ctx = iio_create_local_context()
    }
    if let ctx { return .success(ctx) }
    let code = errno == 0 ? ENODEV : errno
    return .failure(IIOError(errno: code, operation: "create an IIO context", path: uri ?? "local:"))
}

/// `iio_context_set_timeout`: negative errno on failure.
func c_iio_context_set_timeout(_ ctx: OpaquePointer, milliseconds: UInt32, path: String) -> Result<Void, IIOError> {
    let rc = iio_context_set_timeout(ctx, milliseconds)
    if rc < 0 { return .failure(IIOError(errno: -rc, operation: "set the I/O timeout to \(milliseconds) ms", path: path)) }
    return .success(())
}

/// `iio_library_get_version`.
func c_iio_library_version() -> (major: UInt32, minor: UInt32, tag: String) {
    var major: UInt32 = 0, minor: UInt32 = 0
    var tag = [CChar](repeating: 0, count: 8)
    iio_library_get_version(&major, &minor, &tag)
    return (major, minor, String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// Converts a C string libiio owns (may be NULL) to a Swift string.
func c_string(_ p: UnsafePointer<CChar>?) -> String? {
    p.map { String(cString: $0) }
}

// MARK: Attributes

/// Which of libiio's attribute families a name belongs to.
enum AttributeFamily {
    /// `iio_device_attr_*`: files directly in the device's sysfs directory.
    case device
    /// `iio_device_buffer_attr_*`: files in its `buffer/` directory.
    case buffer
    /// `iio_channel_attr_*`: per-channel files such as `in_accel_x_raw`.
    case channel(OpaquePointer)
}

/// The largest attribute text read; libiio itself uses 1 KiB for most reads.
let attributeReadCapacity = 4096

/// `iio_device_attr_read`, `iio_device_buffer_attr_read`, `iio_channel_attr_read`:
/// negative errno on failure. libiio (local backend) replaces the last byte
/// of the file, the kernel's newline, with the terminating NUL.
func c_iio_attr_read(_ device: OpaquePointer, _ family: AttributeFamily, _ name: String,
                     path: String) -> Result<String, IIOError> {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: attributeReadCapacity) { buffer in
        let base = buffer.baseAddress!
        base.initialize(to: 0)
        let rc: Int
        switch family {
        case .device: rc = iio_device_attr_read(device, name, base, attributeReadCapacity)
        case .buffer: rc = iio_device_buffer_attr_read(device, name, base, attributeReadCapacity)
        case .channel(let chn): rc = iio_channel_attr_read(chn, name, base, attributeReadCapacity)
        }
        if rc < 0 { return .failure(IIOError(errno: Int32(-rc), operation: "read \(name)", path: path)) }
        base[min(rc, attributeReadCapacity - 1)] = 0
        return .success(String(cString: base))
    }
}

/// `iio_device_attr_write`, `iio_device_buffer_attr_write`, `iio_channel_attr_write`:
/// negative errno on failure. libiio writes the text and its terminating NUL.
func c_iio_attr_write(_ device: OpaquePointer, _ family: AttributeFamily, _ name: String, _ value: String,
                      path: String) -> Result<Void, IIOError> {
    let rc: Int
    switch family {
    case .device: rc = iio_device_attr_write(device, name, value)
    case .buffer: rc = iio_device_buffer_attr_write(device, name, value)
    case .channel(let chn): rc = iio_channel_attr_write(chn, name, value)
    }
    if rc < 0 { return .failure(IIOError(errno: Int32(-rc), operation: "write \"\(value)\" to \(name)", path: path)) }
    return .success(())
}

// MARK: Triggers

/// `iio_device_get_trigger`: negative errno on failure; ENOENT/ENXIO-free
/// success with NULL when no trigger is set.
func c_iio_device_get_trigger(_ device: OpaquePointer, path: String) -> Result<OpaquePointer?, IIOError> {
    var trigger: OpaquePointer? = nil
    let rc = iio_device_get_trigger(device, &trigger)
    if rc < 0 {
        return .failure(IIOError(errno: -rc, operation: "read its current trigger (trigger/current_trigger)", path: path))
    }
    return .success(trigger)
}

/// `iio_device_set_trigger`: negative errno on failure; NULL clears the trigger.
func c_iio_device_set_trigger(_ device: OpaquePointer, _ trigger: OpaquePointer?, triggerName: String,
                              path: String) -> Result<Void, IIOError> {
    let rc = iio_device_set_trigger(device, trigger)
    if rc < 0 {
        let what = trigger == nil ? "clear its trigger" : "set its trigger to \(triggerName)"
        return .failure(IIOError(errno: -rc, operation: "\(what) (trigger/current_trigger)", path: path))
    }
    return .success(())
}

// MARK: Buffers

/// `iio_device_get_sample_size`: negative errno on failure.
func c_iio_device_get_sample_size(_ device: OpaquePointer, path: String) -> Result<Int, IIOError> {
    let rc = iio_device_get_sample_size(device)
    if rc < 0 { return .failure(IIOError(errno: Int32(-rc), operation: "compute its scan size", path: path)) }
    return .success(rc)
}

/// `iio_device_create_buffer`: NULL with errno set on failure. This opens
/// the device node, writes the channels' `en` files and `buffer/length`, and
/// enables the buffer.
func c_iio_device_create_buffer(_ device: OpaquePointer, sampleCount: Int, cyclic: Bool,
                                path: String, deviceID: String) -> Result<OpaquePointer, IIOError> {
    errno = 0
    if let buffer = iio_device_create_buffer(device, sampleCount, cyclic) { return .success(buffer) }
    let code = errno == 0 ? EIO : errno
    return .failure(IIOError(errno: code, operation: "create a \(sampleCount)-scan buffer for \(deviceID)", path: path))
}

/// `iio_buffer_destroy`: disables the buffer and the channels, closes the node.
func c_iio_buffer_destroy(_ buffer: OpaquePointer) {
    iio_buffer_destroy(buffer)
}

/// `iio_buffer_get_poll_fd`: negative errno on failure (ENOSYS on backends
/// without one, such as the network backend).
func c_iio_buffer_get_poll_fd(_ buffer: OpaquePointer, path: String) -> Result<Int32, IIOError> {
    let rc = iio_buffer_get_poll_fd(buffer)
    if rc < 0 { return .failure(IIOError(errno: -rc, operation: "get the buffer's poll descriptor", path: path)) }
    return .success(rc)
}

/// `iio_buffer_set_blocking_mode`: negative errno on failure.
func c_iio_buffer_set_blocking_mode(_ buffer: OpaquePointer, _ blocking: Bool, path: String) -> Result<Void, IIOError> {
    let rc = iio_buffer_set_blocking_mode(buffer, blocking)
    if rc < 0 {
        return .failure(IIOError(errno: -rc, operation: "set the buffer \(blocking ? "blocking" : "non-blocking")", path: path))
    }
    return .success(())
}

/// `iio_buffer_refill`: the number of bytes read, or negative errno. In
/// non-blocking mode -EAGAIN means "nothing yet" and becomes 0 here.
func c_iio_buffer_refill(_ buffer: OpaquePointer, path: String) -> Result<Int, IIOError> {
    let rc = iio_buffer_refill(buffer)
    if rc >= 0 { return .success(rc) }
    if rc == -Int(EAGAIN) { return .success(0) }
    return .failure(IIOError(errno: Int32(-rc), operation: "read scans", path: path))
}

/// `iio_buffer_start` … `iio_buffer_end`: the bytes the last refill produced.
func c_iio_buffer_bytes(_ buffer: OpaquePointer) -> UnsafeRawBufferPointer {
    guard let start = iio_buffer_start(buffer), let end = iio_buffer_end(buffer) else {
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }
    return UnsafeRawBufferPointer(start: start, count: end - start)
}

/// `iio_buffer_cancel`: wakes a blocked refill; later refills fail at once.
func c_iio_buffer_cancel(_ buffer: OpaquePointer) {
    iio_buffer_cancel(buffer)
}
