// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO
import LibC
import SystemCalls

/// One channel of a device: `accel_x`, `anglvel_z`, `temp`, `timestamp`, …
///
/// A borrowed view: the handle belongs to the device's context, which this
/// value keeps alive. Enabling a channel only marks it in libiio's mask; the
/// kernel's `scan_elements/*_en` files are written when a buffer is created
/// (`IIOBuffer`), and cleared again when it is destroyed.
public struct IIOChannel: @unchecked Sendable, Equatable, CustomStringConvertible {
    // @unchecked Sendable: the handle is owned by the device's context, kept alive here.
    public let device: IIODevice
    let handle: OpaquePointer

    init(device: IIODevice, handle: OpaquePointer) {
        self.device = device
        self.handle = handle
    }

    public static func == (a: IIOChannel, b: IIOChannel) -> Bool { a.handle == b.handle }

    /// The channel id: "accel_x", "anglvel_z", "temp", "timestamp", "voltage0".
    /// The corresponding C function is `iio_channel_get_id`.
    public var id: String { c_string(iio_channel_get_id(handle)) ?? "" }

    /// The extended name some drivers give a channel, if any.
    /// The corresponding C function is `iio_channel_get_name`.
    public var name: String? { c_string(iio_channel_get_name(handle)) }

    /// What it measures. The corresponding C function is `iio_channel_get_type`.
    public var type: IIOChannelType {
        IIOChannelType(iio_channel_get_type(handle), idPrefix: String(id.prefix { !$0.isNumber && $0 != "_" }))
    }

    /// The axis (x, y, z) or other modifier, nil when it has none.
    /// The corresponding C function is `iio_channel_get_modifier`.
    public var modifier: IIOChannelModifier? { IIOChannelModifier(iio_channel_get_modifier(handle)) }

    /// Whether it is an output (`out_…`) rather than an input (`in_…`).
    /// The corresponding C function is `iio_channel_is_output`.
    public var isOutput: Bool { iio_channel_is_output(handle) }

    /// Whether it can be captured in a buffer (it has `scan_elements/` files).
    /// The corresponding C function is `iio_channel_is_scan_element`.
    public var isScanElement: Bool { iio_channel_is_scan_element(handle) }

    /// Its position in a scan (`scan_elements/*_index`), nil when it is not a scan element.
    /// The corresponding C function is `iio_channel_get_index`.
    public var scanIndex: Int? {
        let index = iio_channel_get_index(handle)
        return isScanElement && index >= 0 ? index : nil
    }

    /// How it is stored in a scan (`scan_elements/*_type`).
    ///
    /// Fails with ENOENT when it is not a scan element, and when the format
    /// cannot be decoded (garbage in `_type`, storage of 24 bits, …) with an
    /// error that names the `_type` file and quotes its text.
    /// The corresponding C function is `iio_channel_get_data_format`.
    public var format: IIOScanFormat {
        get throws(IIOError) {
            guard isScanElement, let raw = iio_channel_get_data_format(handle) else {
                throw IIOError(errno: ENOENT, operation: "read the scan format of \(id)", path: typeAttributePath,
                               detail: "\(id) is not a scan element")
            }
            do {
                return try IIOScanFormat(raw.pointee, source: typeAttributePath)
            } catch {
                // libiio parsed the text loosely; parse it ourselves to say what is wrong with it.
                if device.context.isLocal, let text = try? device.readAttribute(typeAttributeName) {
                    _ = try IIOScanFormat(parsing: text, source: typeAttributePath)
                }
                throw error
            }
        }
    }

    /// Whether it is in libiio's capture mask.
    /// The corresponding C function is `iio_channel_is_enabled`.
    public var isEnabled: Bool { iio_channel_is_enabled(handle) }

    /// Marks it for capture by the next buffer. The corresponding C function is `iio_channel_enable`.
    public func enable() { iio_channel_enable(handle) }

    /// Removes it from capture. The corresponding C function is `iio_channel_disable`.
    public func disable() { iio_channel_disable(handle) }

    /// "iio:device0 (mpu6050) accel_x": how messages name the channel.
    public var description: String { "\(device) \(id)" }

    /// `scan_elements/in_<id>_en`: the file libiio writes to put the channel
    /// in a capture or leave it out (what a user needs write access to).
    public var enableAttributePath: String {
        device.attributePath("scan_elements/\(isOutput ? "out" : "in")_\(id)_en")
    }

    /// `scan_elements/in_<id>_type`, relative to the device's sysfs directory.
    var typeAttributeName: String { "scan_elements/\(isOutput ? "out" : "in")_\(id)_type" }
    var typeAttributePath: String { device.attributePath(typeAttributeName) }
}

/// Channel attributes: `raw`, `scale`, `offset`, `calibbias`,
/// `mount_matrix`, … by their short names; the file may be shared by
/// several channels (`in_accel_scale` serves `accel_x`, `accel_y`, `accel_z`).
extension IIOChannel {
    /// The channel's attribute names ("raw", "scale", "calibbias", …).
    /// The corresponding C functions are `iio_channel_get_attrs_count` and `iio_channel_get_attr`.
    public var attributeNames: [String] {
        (0..<iio_channel_get_attrs_count(handle)).compactMap { c_string(iio_channel_get_attr(handle, $0)) }
    }

    /// The file behind an attribute: "/sys/bus/iio/devices/iio:device0/in_accel_scale".
    /// The corresponding C function is `iio_channel_attr_get_filename`.
    public func attributePath(_ name: String) -> String {
        let file = c_string(iio_channel_attr_get_filename(handle, name)) ?? "\(isOutput ? "out" : "in")_\(id)_\(name)"
        return device.attributePath(file)
    }

    /// Reads an attribute's text. The corresponding C function is `iio_channel_attr_read`.
    public func readAttribute(_ name: String) throws(IIOError) -> String {
        try c_iio_attr_read(device.handle, .channel(handle), name, path: attributePath(name)).get()
    }

    /// Reads an attribute and parses it: `readAttribute("scale", as: Double.self)`.
    /// Text that is not a `T` fails with EINVAL, naming the file and quoting the text.
    public func readAttribute<T: IIOAttributeValue>(_ name: String, as type: T.Type) throws(IIOError) -> T {
        try parseAttribute(readAttribute(name), as: type, name: name, path: attributePath(name))
    }

    /// Writes an attribute. The corresponding C function is `iio_channel_attr_write`.
    public func writeAttribute(_ name: String, _ value: String) throws(IIOError) {
        try c_iio_attr_write(device.handle, .channel(handle), name, value, path: attributePath(name)).get()
    }

    /// Writes a typed value's text to an attribute.
    public func writeAttribute<T: IIOAttributeValue>(_ name: String, _ value: T) throws(IIOError) {
        try writeAttribute(name, value.attributeText)
    }
}
