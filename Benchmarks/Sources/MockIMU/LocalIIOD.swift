// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `iiod` serving this process's testbed on a free localhost port
/// (it inherits the preload and `UMOCKDEV_DIR`), killed on `deinit`: the
/// far end of `--iio-uri` for the network latency benchmark. The root
/// package's tests have the same daemon in Tests/MockDevices/IIODaemon.swift.
public final class LocalIIOD {
    public let port: UInt16
    private let pid: pid_t

    public var uri: String { "ip:127.0.0.1:\(port)" }

    public init() throws(MockTestbedError) {
        let candidates: [String] = ["/usr/sbin/iiod", "/usr/bin/iiod"]
        guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
            throw MockTestbedError(description: "iiod is not installed (Debian package iiod)")
        }
        port = Self.freePort()
        var child: pid_t = 0
        let args = [path, "-p", "\(port)"]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&child, path, &actions, nil, &argv, environ) == 0 else {
            throw MockTestbedError(description: "cannot start \(path)")
        }
        pid = child
        for _ in 0..<1000 where !Self.accepts(port) { usleep(20_000) }
        guard Self.accepts(port) else {
            kill(pid, SIGKILL)
            throw MockTestbedError(description: "iiod never listened on port \(port)")
        }
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    static func loopback(_ port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        return a
    }

    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length); return getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: a.sin_port)
    }

    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = loopback(port)
        return withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
