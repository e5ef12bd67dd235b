import CIIO
#if canImport(Glibc)
import Glibc
#endif

// The one place each libiio call is made (the swift-system habit): errno
// becomes a typed error right here, never at call sites.

/// `iio_create_local_context` / `iio_create_context_from_uri`: NULL with errno set on failure.
func c_iio_create_context(uri: String?) -> Result<OpaquePointer, IIOError> {
    errno = 0
    let ctx: OpaquePointer?
    if let uri {
        ctx = iio_create_context_from_uri(uri)
    } else {
        ctx = iio_create_local_context()
    }
    if let ctx { return .success(ctx) }
    let code = errno == 0 ? ENODEV : errno
    return .failure(IIOError(errno: code, operation: "create an IIO context", subject: uri ?? "local:"))
}

/// `iio_library_get_version`.
func c_iio_library_version() -> (major: UInt32, minor: UInt32, tag: String) {
    var major: UInt32 = 0, minor: UInt32 = 0
    var tag = [CChar](repeating: 0, count: 8)
    iio_library_get_version(&major, &minor, &tag)
    return (major, minor, String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// Converts a C string libiio owns (may be NULL) to a Swift string.
func c_string(_ p: UnsafePointer<CChar>?) -> String? {
    p.map { String(cString: $0) }
}
