#if canImport(Glibc)
import Glibc
#endif

/// A libiio call or system call that failed: what was being done, to which
/// device, attribute, path or URI, and the errno it gave.
///
/// Every failure in this module is one of these, so a caller can both show
/// it to a user (`description` says what happened, to which file, and what
/// to do next) and act on it (`errno`).
public struct IIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The errno value (as a positive number), e.g. `EACCES`, `ENOENT`,
    /// `EINVAL` for text that is not what was expected, `ETIMEDOUT` when no
    /// scan came in time.
    public var errno: Int32
    /// What was being done, e.g. "create an IIO context", "read in_accel_scale".
    public var operation: String
    /// The device, attribute path, device node or URI involved.
    public var subject: String
    /// What the errno alone cannot say: the bad text that was read, or what
    /// to do next. When set it replaces the generic hint for permission errors.
    public var detail: String?

    public init(errno: Int32, operation: String, subject: String, detail: String? = nil) {
        self.errno = errno
        self.operation = operation
        self.subject = subject
        self.detail = detail
    }

    /// "subject: cannot operation: strerror (errno N); detail".
    public var description: String {
        var text = "\(subject): cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        if let detail {
            text += "; \(detail)"
        } else if errno == EACCES || errno == EPERM {
            text += "; this user may not open it: install the udev rules in udev/ (see udev/README.md) and log in again"
        }
        return text
    }
}
