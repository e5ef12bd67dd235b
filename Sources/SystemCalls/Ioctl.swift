import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// A device-specific request with a pointer argument; its return value.
    /// The corresponding C function is `ioctl`.
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Int32, Errno> {
        valueOrErrno { ioctl(rawValue, request, argument) }
    }
}
