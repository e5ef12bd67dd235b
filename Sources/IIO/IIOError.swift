#if canImport(Glibc)
import Glibc
#endif

/// A libiio call that failed: which call, on what, and the errno it gave.
public struct IIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The errno value libiio returned (as a positive number).
    public var errno: Int32
    /// What was being done, e.g. "create context".
    public var operation: String
    /// The device, attribute, path or URI involved.
    public var subject: String

    public init(errno: Int32, operation: String, subject: String) {
        self.errno = errno
        self.operation = operation
        self.subject = subject
    }

    public var description: String {
        var text = "\(subject): cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        if errno == EACCES || errno == EPERM {
            text += "; this user may not open it: install the udev rules in udev/ (see udev/README.md) and log in again"
        }
        return text
    }
}
