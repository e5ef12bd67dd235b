#if canImport(Glibc)
import Glibc
#endif

/// An evdev call that failed: which call, on which node, and the errno it gave.
///
/// `description` says what happened, to which node, and what to do next;
/// `errno` is for code that acts on it (ENODEV: the device is gone).
public struct EvdevError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The errno value (positive): EACCES, ENOENT, ENODEV, ENOTTY, EBUSY, …
    public var errno: Int32
    /// What was being done: "open", "read events", "set its event clock to CLOCK_MONOTONIC".
    public var operation: String
    /// The device node, e.g. "/dev/input/event5".
    public var path: String
    /// What the errno alone cannot say; replaces the generic hint when set.
    public var detail: String?

    public init(errno: Int32, operation: String, path: String, detail: String? = nil) {
        self.errno = errno
        self.operation = operation
        self.path = path
        self.detail = detail
    }

    /// Whether the device has gone away (unplugged, switched off, out of
    /// Bluetooth range): the node is dead and must be opened again when it
    /// comes back.
    public var isDeviceGone: Bool { errno == ENODEV }

    /// "path: cannot operation: strerror (errno N); what to do".
    public var description: String {
        var text = "\(path): cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        if let detail { return text + "; " + detail }
        switch errno {
        case EACCES, EPERM:
            text += "; this user may not open it: install the udev rules in udev/ (see udev/README.md) and log in again"
        case ENODEV:
            text += "; the device is gone (unplugged, switched off or out of range): reconnect it"
        case ENOTTY:
            text += "; it is not an evdev input node (expected /dev/input/eventN)"
        case ENOENT where operation == "open":
            text += "; no such node: is the device connected?"
        default:
            break
        }
        return text
    }
}
