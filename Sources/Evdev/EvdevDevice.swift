import CEvdev
#if canImport(Glibc)
import Glibc
#endif

/// An open evdev input node (`/dev/input/eventN`), read through libevdev.
///
/// Owns the file descriptor and the libevdev handle; both are released in `deinit`.
public final class EvdevDevice: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time (the sensor thread once started).
    public let path: String
    public let fileDescriptor: Int32
    let handle: OpaquePointer

    /// Opens `path` read-only and non-blocking. The corresponding C functions
    /// are `open` and `libevdev_new_from_fd`.
    public init(path: String) throws(EvdevError) {
        self.path = path
        let fd = try c_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC).get()
        switch c_libevdev_new_from_fd(fd, path: path) {
        case .success(let dev):
            fileDescriptor = fd
            handle = dev
        case .failure(let error):
            close(fd)
            throw error
        }
    }

    deinit {
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// The kernel's name for the device, e.g. "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors".
    public var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }
    /// Physical location, e.g. a Bluetooth address.
    public var phys: String? { libevdev_get_phys(handle).map { String(cString: $0) } }
    /// Unique id; a controller's motion node and gamepad node share it.
    public var uniq: String? { libevdev_get_uniq(handle).map { String(cString: $0) } }

    /// Whether the device sets input property `property` (e.g. `INPUT_PROP_ACCELEROMETER`).
    public func hasProperty(_ property: UInt32) -> Bool {
        libevdev_has_property(handle, property) == 1
    }

    /// Whether the node is a motion sensor (`INPUT_PROP_ACCELEROMETER`).
    public var isMotionSensor: Bool { hasProperty(UInt32(INPUT_PROP_ACCELEROMETER)) }
}
