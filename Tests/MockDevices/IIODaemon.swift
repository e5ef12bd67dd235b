// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation

/// A real `iiod` (Debian's package: the daemon libiio's network backend
/// talks to) serving this process's umockdev testbed on a free localhost
/// port, for as long as the value lives. It inherits the preload and the
/// testbed's directory from this process, so it sees the mock devices.
public final class IIODaemon {
    public let port: UInt16
    private let process: Process

    /// `ip:127.0.0.1:PORT`, as `--iio-uri` takes it.
    public var uri: String { "ip:127.0.0.1:\(port)" }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts iiod and waits (up to 20 s, a hang) until it takes connections.
    public init() throws {
        guard let path = ["/usr/sbin/iiod", "/usr/bin/iiod"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "iiod is not installed: `scripts/install-deps.sh test` installs it (Debian package iiod)")
        }
        port = Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-p", "\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !Self.accepts(port) {
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw Failure(description: "iiod never listened on port \(port)")
            }
            usleep(20_000)
        }
    }

    deinit {
        // iiod waits for its clients on SIGTERM; a test's daemon has nothing to finish.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A TCP port nobody listens on now (the kernel's pick for port 0).
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length); return getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
