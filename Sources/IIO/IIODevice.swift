// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO

/// One IIO device of a context (`iio:deviceN`) or a trigger (`triggerN`).
///
/// A borrowed view: the handle belongs to `context`, which this value keeps
/// alive. Attribute access is in `IIODevice+Attributes.swift`, triggers in
/// `IIODevice+Trigger.swift`.
public struct IIODevice: @unchecked Sendable, Equatable, CustomStringConvertible {
    // @unchecked Sendable: the handle is owned by `context`, which is kept alive here.
    public let context: IIOContext
    let handle: OpaquePointer

    init(context: IIOContext, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
    }

    public static func == (a: IIODevice, b: IIODevice) -> Bool { a.handle == b.handle }

    /// The kernel's id: "iio:device0", "trigger1".
    /// The corresponding C function is `iio_device_get_id`.
    public var id: String { c_string(iio_device_get_id(handle)) ?? "" }

    /// The driver-given name: "mpu6050", "lsm6ds3_accel", "mpu6050-dev0", …
    /// The corresponding C function is `iio_device_get_name`.
    public var name: String? { c_string(iio_device_get_name(handle)) }

    /// The firmware-given label (device tree `label`), when there is one.
    /// The corresponding C function is `iio_device_get_label`.
    public var label: String? { c_string(iio_device_get_label(handle)) }

    /// Whether this is a trigger rather than a sensor.
    /// The corresponding C function is `iio_device_is_trigger`.
    public var isTrigger: Bool { iio_device_is_trigger(handle) }

    /// "/sys/bus/iio/devices/<id>": where its attributes live (local backend).
    public var sysfsPath: String { "/sys/bus/iio/devices/\(id)" }

    /// "/dev/<id>": the character device its buffer is read from (local backend).
    public var devicePath: String { "/dev/\(id)" }

    /// "iio:device0 (mpu6050)": how messages name the device.
    public var description: String {
        if let name { return "\(id) (\(name))" }
        return id
    }

    /// Every channel, inputs and outputs, in libiio's order (scan elements by
    /// scan index first). The corresponding C functions are
    /// `iio_device_get_channels_count` and `iio_device_get_channel`.
    public var channels: [IIOChannel] {
        (0..<iio_device_get_channels_count(handle)).compactMap { i in
            iio_device_get_channel(handle, i).map { IIOChannel(device: self, handle: $0) }
        }
    }

    /// The ids of the device's channels: "accel_x", "anglvel_z", "timestamp", …
    public var channelIDs: [String] { channels.map(\.id) }

    /// The channel with this id ("accel_x", "timestamp", "voltage0"), if any.
    /// Input channels are preferred; pass `output: true` for an output channel.
    public func channel(id: String, output: Bool = false) -> IIOChannel? {
        channels.first { $0.id == id && $0.isOutput == output }
    }

    /// Where an error about this device should point: the sysfs directory on
    /// the local backend, the id elsewhere.
    var errorSubject: String { context.isLocal ? sysfsPath : "\(context.uri) \(id)" }
}
