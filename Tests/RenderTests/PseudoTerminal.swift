// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import CLinuxDisplay

/// A pty pair for testing the terminal session without a real terminal: the
/// session gets the slave side, the test plays the terminal on the master.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    /// The pty functions, looked up at run time: Swift's Glibc module does
    /// not declare them (glibc hides them behind _XOPEN_SOURCE).
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias DescriptorFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    private static func function<F>(_ name: String, as type: F.Type) -> F {
        guard let symbol = dlsym(nil, name) else { preconditionFailure("\(name) not found") }
        return unsafeBitCast(symbol, to: type)
    }

    init() {
        let posixOpenpt = Self.function("posix_openpt", as: OpenFunction.self)
        let grantpt = Self.function("grantpt", as: DescriptorFunction.self)
        let unlockpt = Self.function("unlockpt", as: DescriptorFunction.self)
        let ptsnameR = Self.function("ptsname_r", as: NameFunction.self)
        master = posixOpenpt(O_RDWR | O_NOCTTY)
        precondition(master >= 0, "posix_openpt failed: errno \(errno)")
        precondition(grantpt(master) == 0 && unlockpt(master) == 0, "grantpt/unlockpt failed: errno \(errno)")
        var name = [CChar](repeating: 0, count: 256)
        precondition(ptsnameR(master, &name, name.count) == 0, "ptsname_r failed")
        slave = open(name, O_RDWR | O_NOCTTY)
        precondition(slave >= 0, "opening the pty slave failed: errno \(errno)")
    }

    deinit {
        close(slave)
        close(master)
    }

    /// The slave's current settings.
    var attributes: termios {
        var t = termios()
        tcgetattr(slave, &t)
        return t
    }

    /// Types bytes, as a user at the terminal would.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything the session has written so far.
    func drain() -> String {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { break }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { break }
            collected += buffer[0 ..< n]
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Sets the window size the slave reports.
    func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }
}

/// The fields `restore()` must put back, comparable.
struct TerminalModes: Equatable {
    var input, output, control, local: tcflag_t
    var controlCharacters: [UInt8]

    init(_ t: termios) {
        input = t.c_iflag
        output = t.c_oflag
        control = t.c_cflag
        local = t.c_lflag
        var cc = t.c_cc
        controlCharacters = withUnsafeBytes(of: &cc) { Array($0) }
    }
}
