#if canImport(Glibc)
import Glibc
#endif

// The one place each system call of this module is made (the swift-system
// habit): "returned -1, look at errno" becomes a `Result` right here, and
// EINTR is retried here rather than at every call site.

/// Retries `body` while it fails with EINTR; returns its result or the errno.
@inline(__always)
func valueOrErrno<T: BinaryInteger>(retryOnInterrupt: Bool = true, _ body: () -> T) -> Result<T, Errno> {
    while true {
        let rc = body()
        if rc != -1 { return .success(rc) }
        let code = errno
        if retryOnInterrupt && code == EINTR { continue }
        return .failure(Errno(code))
    }
}

/// An errno value from a system call, before it is given its context.
struct Errno: Error, Equatable {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}

/// `poll` over the descriptors in `fds`; the number ready, 0 on timeout.
/// A negative `timeoutMilliseconds` waits forever.
func system_poll(_ fds: UnsafeMutablePointer<pollfd>, count: Int, timeoutMilliseconds: Int32) -> Result<Int32, Errno> {
    valueOrErrno { poll(fds, nfds_t(count), timeoutMilliseconds) }
}

/// `pipe`, both ends made non-blocking and close-on-exec with `fcntl`.
/// Used as a wake-up channel for cancelling a wait in `poll`.
func system_wakeupPipe() -> Result<(read: Int32, write: Int32), Errno> {
    var fds: (Int32, Int32) = (-1, -1)
    let rc = withUnsafeMutableBytes(of: &fds) { raw in
        valueOrErrno { pipe(raw.baseAddress!.assumingMemoryBound(to: Int32.self)) }
    }
    if case .failure(let e) = rc { return .failure(e) }
    for fd in [fds.0, fds.1] {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    return .success((fds.0, fds.1))
}

/// `write` of one byte (to a wake-up pipe); a full pipe already wakes its reader.
func system_writeByte(_ fd: Int32) {
    var byte: UInt8 = 1
    _ = valueOrErrno { write(fd, &byte, 1) }
}

/// `read` until EAGAIN: empties a non-blocking wake-up pipe.
func system_drain(_ fd: Int32) {
    var scratch: (UInt64, UInt64) = (0, 0)
    while case .success(let n) = withUnsafeMutableBytes(of: &scratch, { raw in
        valueOrErrno { read(fd, raw.baseAddress, raw.count) }
    }), n > 0 {}
}

/// `close`.
func system_close(_ fd: Int32) {
    _ = valueOrErrno(retryOnInterrupt: false) { close(fd) }
}

/// `mkdir`.
func system_mkdir(_ path: String, mode: mode_t) -> Result<Void, Errno> {
    valueOrErrno { mkdir(path, mode) }.map { _ in () }
}

/// `rmdir`.
func system_rmdir(_ path: String) -> Result<Void, Errno> {
    valueOrErrno { rmdir(path) }.map { _ in () }
}

/// `stat`: whether `path` exists and is a directory.
func system_isDirectory(_ path: String) -> Result<Bool, Errno> {
    var info = stat()
    switch valueOrErrno({ stat(path, &info) }) {
    case .success: return .success((info.st_mode & S_IFMT) == S_IFDIR)
    case .failure(let e): return .failure(e)
    }
}

/// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
func system_monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// `open` then `close`: the errno when this process may not open `path`
/// with `flags` (`O_WRONLY`, `O_RDWR`…), nil when it may. Used only after a
/// failure, to name the file behind an EACCES. (`access(2)` checks the real
/// uid, and `faccessat` is not redirected by umockdev's preload, so opening
/// is the check that sees what libiio saw.)
func system_openError(_ path: String, _ flags: Int32) -> Errno? {
    switch valueOrErrno({ open(path, flags | O_NONBLOCK | O_CLOEXEC) }) {
    case .success(let fd):
        system_close(fd)
        return nil
    case .failure(let e):
        return e
    }
}
