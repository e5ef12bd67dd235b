import CIIO

/// A libiio context: the local kernel's IIO devices, or a remote `iiod`
/// (`ip:raspberrypi.local`), or any other libiio URI.
///
/// Owns its C handle and destroys it in `deinit`; devices and channels
/// borrowed from it keep the context alive.
public final class IIOContext: @unchecked Sendable {
    // @unchecked Sendable: libiio contexts are safe to read from several
    // threads; mutation goes through libiio's own per-device calls.
    let handle: OpaquePointer

    /// Opens a context. The corresponding C functions are
    /// `iio_create_local_context` (no URI) and `iio_create_context_from_uri`.
    public init(uri: String? = nil) throws(IIOError) {
        handle = try c_iio_create_context(uri: uri).get()
    }

    deinit { iio_context_destroy(handle) }

    /// The backend's name: "local", "network", …
    public var name: String { c_string(iio_context_get_name(handle)) ?? "" }

    /// Every IIO device of the context (sensors and triggers alike).
    public var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(handle)).compactMap { i in
            iio_context_get_device(handle, i).map { IIODevice(context: self, handle: $0) }
        }
    }

    /// The libiio version this program runs against, e.g. "0.24".
    public static var libraryVersion: String {
        let v = c_iio_library_version()
        return "\(v.major).\(v.minor)"
    }
}

/// One IIO device of a context (`iio:deviceN` or `triggerN`).
public struct IIODevice: @unchecked Sendable {
    // @unchecked Sendable: the handle is owned by `context`, which is kept alive here.
    public let context: IIOContext
    let handle: OpaquePointer

    init(context: IIOContext, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
    }

    /// The kernel's id: "iio:device0", "trigger1".
    public var id: String { c_string(iio_device_get_id(handle)) ?? "" }
    /// The driver-given name: "mpu6050", "lsm6ds3_accel", …
    public var name: String? { c_string(iio_device_get_name(handle)) }
    /// Whether this is a trigger rather than a sensor.
    public var isTrigger: Bool { iio_device_is_trigger(handle) }

    /// The ids of the device's channels: "accel_x", "anglvel_z", "timestamp", …
    public var channelIDs: [String] {
        (0..<iio_device_get_channels_count(handle)).compactMap { i in
            iio_device_get_channel(handle, i).flatMap { c_string(iio_channel_get_id($0)) }
        }
    }
}
