#if canImport(Glibc)
import Glibc
#endif

/// An evdev call that failed: which call, on which node, and the errno it gave.
public struct EvdevError: Error, CustomStringConvertible, Sendable, Equatable {
    public var errno: Int32
    public var operation: String
    /// The device node, e.g. "/dev/input/event5".
    public var path: String

    public init(errno: Int32, operation: String, path: String) {
        self.errno = errno
        self.operation = operation
        self.path = path
    }

    public var description: String {
        var text = "\(path): cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        switch errno {
        case EACCES, EPERM:
            text += "; this user may not open it: install the udev rules in udev/ (see udev/README.md) and log in again"
        case ENOTTY, EINVAL:
            text += "; it is not an evdev input node (expected /dev/input/eventN)"
        default:
            break
        }
        return text
    }
}
