import CEvdev
#if canImport(Glibc)
import Glibc
#endif

// The one place each libevdev and syscall is made; errno becomes a typed error here.

/// `open(2)`, retried on EINTR.
func c_open(_ path: String, _ flags: Int32) -> Result<Int32, EvdevError> {
    while true {
        let fd = open(path, flags)
        if fd >= 0 { return .success(fd) }
        if errno != EINTR { return .failure(EvdevError(errno: errno, operation: "open", path: path)) }
    }
}

/// `libevdev_new_from_fd`: returns a negative errno on failure.
func c_libevdev_new_from_fd(_ fd: Int32, path: String) -> Result<OpaquePointer, EvdevError> {
    var dev: OpaquePointer?
    let rc = libevdev_new_from_fd(fd, &dev)
    if rc < 0 || dev == nil {
        return .failure(EvdevError(errno: -rc, operation: "read its input device description", path: path))
    }
    return .success(dev!)
}
