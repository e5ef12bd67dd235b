// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO

/// A libiio context: the local kernel's IIO devices, or a remote `iiod`
/// (`ip:raspberrypi.local`), or any other libiio URI.
///
/// A context is a snapshot taken when it is created: devices that appear
/// later (a new hrtimer trigger, a hot-plugged sensor) need a new context.
/// Owns its C handle (`IIOContextHandle`, destroyed when the context goes);
/// devices, channels and buffers made from it keep it alive.
public final class IIOContext: @unchecked Sendable {
    // @unchecked Sendable: libiio contexts are safe to read from several
    // threads; mutation goes through libiio's own per-device calls.
    private let owner: IIOContextHandle
    var handle: OpaquePointer { owner.pointer }

    /// Opens a context. With no URI, the local backend (sysfs and /dev).
    /// The corresponding C functions are `iio_create_local_context` (no URI)
    /// and `iio_create_context_from_uri`.
    public init(uri: String? = nil) throws(IIOError) {
        let pointer = try c_iio_create_context(uri: uri).get()
        owner = IIOContextHandle(pointer)
        self.uri = uri ?? "local:"
        isLocal = c_string(iio_context_get_name(pointer)) == "local"
    }

    /// The URI this context was opened with ("local:" for the local backend).
    public let uri: String

    /// The backend's name: "local", "network", "xml", …
    /// The corresponding C function is `iio_context_get_name`.
    public var name: String { c_string(iio_context_get_name(handle)) ?? "" }

    /// Whether this is the local backend, the only one whose devices have
    /// `sysfsPath` and `devicePath` on this machine.
    public let isLocal: Bool

    /// Every IIO device of the context (sensors and triggers alike), in
    /// libiio's order. The corresponding C functions are
    /// `iio_context_get_devices_count` and `iio_context_get_device`.
    public var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(handle)).compactMap { i in
            iio_context_get_device(handle, i).map { IIODevice(context: self, handle: $0) }
        }
    }

    /// The devices that are triggers (`triggerN`: data-ready, hrtimer, sysfs…).
    public var triggers: [IIODevice] { devices.filter(\.isTrigger) }

    /// The device with this kernel id ("iio:device0", "trigger1"), if any.
    public func device(id: String) -> IIODevice? {
        devices.first { $0.id == id }
    }

    /// The first device (sensor or trigger) with this driver-given name
    /// ("mpu6050", "lsm6ds3_accel", "mpu6050-dev0"), if any. Two identical
    /// chips share a name: use `devices` to see them all.
    public func device(named name: String) -> IIODevice? {
        devices.first { $0.name == name }
    }

    /// Bounds how long a blocking libiio operation (a blocking refill) waits.
    /// The corresponding C function is `iio_context_set_timeout`; libiio's
    /// local default is 1 s, 0 means forever.
    public func setTimeout(milliseconds: UInt32) throws(IIOError) {
        try c_iio_context_set_timeout(handle, milliseconds: milliseconds, path: uri).get()
    }

    /// The libiio version this program runs against, e.g. "0.24".
    /// The corresponding C function is `iio_library_get_version`.
    public static var libraryVersion: String {
        let v = c_iio_library_version()
        return "\(v.major).\(v.minor)"
    }
}

/// A libiio context handle with one owner, destroyed when that owner goes.
struct IIOContextHandle: ~Copyable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { iio_context_destroy(pointer) }
}
