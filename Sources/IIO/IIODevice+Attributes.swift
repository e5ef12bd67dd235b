// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import CIIO
import LibC

/// Device attributes (files in `/sys/bus/iio/devices/<id>/`) and buffer
/// attributes (files in its `buffer/` directory: `length`, `enable`,
/// `watermark`, …), as text or typed.
///
/// Errors name the attribute's file ("/sys/bus/iio/devices/iio:device0/
/// sampling_frequency"), carry the errno, and for text that does not parse,
/// quote it.
extension IIODevice {
    // MARK: Device attributes

    /// The names of the device attributes libiio found ("sampling_frequency",
    /// "current_timestamp_clock", "mount_matrix", …). The corresponding C
    /// functions are `iio_device_get_attrs_count` and `iio_device_get_attr`.
    public var attributeNames: [String] {
        (0..<iio_device_get_attrs_count(handle)).compactMap { c_string(iio_device_get_attr(handle, $0)) }
    }

    /// Reads a device attribute's text, without its trailing newline.
    /// The corresponding C function is `iio_device_attr_read`.
    ///
    /// An empty file reads as "": libiio 0.24's local backend fails such a
    /// read with EIO (it counts zero bytes as an error), and the kernel
    /// writes nothing at all in some attributes, `trigger/current_trigger`
    /// of a device with no trigger set among them.
    public func readAttribute(_ name: String) throws(IIOError) -> String {
        do {
            return try c_iio_attr_read(handle, .device, name, path: attributePath(name)).get()
        } catch where error.errno == EIO && isEmptyLocalFile(attributePath(name)) {
            return ""
        }
    }

    /// Whether `path` is a file of this machine's sysfs that exists and is empty.
    func isEmptyLocalFile(_ path: String) -> Bool {
        guard context.isLocal, case .success(let bytes) = FileContents.read(path, limit: 1) else { return false }
        return bytes.isEmpty
    }

    /// Reads a device attribute and parses it: `readAttribute("sampling_frequency", as: Int.self)`.
    /// Text that is not a `T` fails with EINVAL, naming the file and quoting the text.
    public func readAttribute<T: IIOAttributeValue>(_ name: String, as type: T.Type) throws(IIOError) -> T {
        try parseAttribute(readAttribute(name), as: type, name: name, path: attributePath(name))
    }

    /// Writes a device attribute. The corresponding C function is `iio_device_attr_write`.
    public func writeAttribute(_ name: String, _ value: String) throws(IIOError) {
        try c_iio_attr_write(handle, .device, name, value, path: attributePath(name)).get()
    }

    /// Writes a typed value's text to a device attribute.
    public func writeAttribute<T: IIOAttributeValue>(_ name: String, _ value: T) throws(IIOError) {
        try writeAttribute(name, value.attributeText)
    }

    // MARK: Buffer attributes

    /// The names of the buffer attributes ("length", "enable", "watermark",
    /// "data_available", …). The corresponding C functions are
    /// `iio_device_get_buffer_attrs_count` and `iio_device_get_buffer_attr`.
    public var bufferAttributeNames: [String] {
        (0..<iio_device_get_buffer_attrs_count(handle)).compactMap { c_string(iio_device_get_buffer_attr(handle, $0)) }
    }

    /// Reads a buffer attribute ("length" for `buffer/length`).
    /// The corresponding C function is `iio_device_buffer_attr_read`.
    public func readBufferAttribute(_ name: String) throws(IIOError) -> String {
        try c_iio_attr_read(handle, .buffer, name, path: bufferAttributePath(name)).get()
    }

    /// Reads a buffer attribute and parses it: `readBufferAttribute("length", as: Int.self)`.
    public func readBufferAttribute<T: IIOAttributeValue>(_ name: String, as type: T.Type) throws(IIOError) -> T {
        try parseAttribute(readBufferAttribute(name), as: type, name: "buffer/\(name)", path: bufferAttributePath(name))
    }

    /// Writes a buffer attribute ("watermark", "length", "enable").
    /// The corresponding C function is `iio_device_buffer_attr_write`.
    public func writeBufferAttribute(_ name: String, _ value: String) throws(IIOError) {
        try c_iio_attr_write(handle, .buffer, name, value, path: bufferAttributePath(name)).get()
    }

    /// Writes a typed value's text to a buffer attribute.
    public func writeBufferAttribute<T: IIOAttributeValue>(_ name: String, _ value: T) throws(IIOError) {
        try writeBufferAttribute(name, value.attributeText)
    }

    // MARK: Where they live

    /// The file behind a device attribute (local backend), or "uri id/name".
    public func attributePath(_ name: String) -> String {
        context.isLocal ? "\(sysfsPath)/\(name)" : "\(context.uri) \(id)/\(name)"
    }

    /// The file behind a buffer attribute (local backend), or "uri id/buffer/name".
    public func bufferAttributePath(_ name: String) -> String {
        context.isLocal ? "\(sysfsPath)/buffer/\(name)" : "\(context.uri) \(id)/buffer/\(name)"
    }
}
