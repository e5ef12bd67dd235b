// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CLinuxDisplay
import SystemCalls
import SystemPackage
import LibC

/// A Linux virtual console's display mode (`KDGETMODE`/`KDSETMODE`:
/// text, or graphics so the console draws nothing over a program) and its
/// switching mode (`VT_GETMODE`/`VT_SETMODE`: automatic, or the program
/// asked by a signal before each switch and answering with `VT_RELDISP`).
public struct Console {
    public let descriptor: FileDescriptor
    /// What to call it in errors: "standard input", "/dev/tty1".
    public let name: String

    public init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Both modes, as saved before taking the console and put back after.
    public struct Modes: Sendable {
        /// `KD_TEXT` or `KD_GRAPHICS`.
        public var display: Int32
        public var switching: vt_mode

        /// Text mode with automatic switching: a console nobody has taken.
        public init() {
            display = 0
            switching = vt_mode()
        }

        public init(display: Int32, switching: vt_mode) {
            self.display = display
            self.switching = switching
        }
    }

    /// Whether `descriptor` is a virtual console (`KDGETMODE` answers).
    public static func isConsole(_ descriptor: FileDescriptor) -> Bool {
        var mode: Int32 = 0
        if case .success = descriptor.control(cld_KDGETMODE, &mode) { return true }
        return false
    }

    public func modes() throws(DeviceError) -> Modes {
        var display: Int32 = 0
        if case .failure(let e) = descriptor.control(cld_KDGETMODE, &display) {
            throw DeviceError(errno: e.rawValue, operation: "read its console mode (KDGETMODE)", path: name,
                              detail: e == .inappropriateIOCTLForDevice ? "it is not a Linux virtual console" : nil)
        }
        var switching = vt_mode()
        if case .failure(let e) = descriptor.control(cld_VT_GETMODE, &switching) {
            throw DeviceError(errno: e.rawValue, operation: "read its switching mode (VT_GETMODE)", path: name)
        }
        return Modes(display: display, switching: switching)
    }

    /// Graphics mode: the console stops drawing (text, cursor) until text mode is set again.
    public func setGraphicsMode() throws(DeviceError) {
        if case .failure(let e) = descriptor.control(cld_KDSETMODE, value: Int32(KD_GRAPHICS)) {
            throw DeviceError(errno: e.rawValue, operation: "put the console in graphics mode (KDSETMODE)", path: name)
        }
    }

    /// From now on a switch away sends `release` and waits for
    /// `releaseDisplay()`; a switch back sends `acquire`, answered by
    /// `acknowledgeAcquire()`.
    public func askBeforeSwitching(release: Int32, acquire: Int32, from saved: vt_mode) throws(DeviceError) {
        var process = saved
        process.mode = CChar(VT_PROCESS)
        process.relsig = Int16(release)
        process.acqsig = Int16(acquire)
        if case .failure(let e) = descriptor.control(cld_VT_SETMODE, &process) {
            throw DeviceError(errno: e.rawValue, operation: "take over console switching (VT_SETMODE)", path: name)
        }
    }

    /// Lets a switch away that was asked for go ahead (`VT_RELDISP 1`).
    public func releaseDisplay() {
        _ = descriptor.control(cld_VT_RELDISP, value: 1)
    }

    /// Acknowledges a switch back (`VT_RELDISP VT_ACKACQ`).
    public func acknowledgeAcquire() {
        _ = descriptor.control(cld_VT_RELDISP, value: Int32(VT_ACKACQ))
    }

    /// Starts a guard: a child process that puts `modes` back if this
    /// process dies without dismissing it (SIGKILL, the OOM killer: no
    /// handler runs then, and a console left in graphics mode draws no text).
    public func guardModes(_ modes: Modes) throws(DeviceError) -> ConsoleGuard {
        var switching = modes.switching
        let fd = cld_console_guard(descriptor.rawValue, modes.display, &switching)
        guard fd >= 0 else { throw DeviceError(errno: errno, operation: "start a process to restore it (fork)", path: name) }
        return ConsoleGuard(descriptor: fd)
    }

    /// Puts `modes` back. Async-signal-safe (two `ioctl`s, nothing
    /// allocated), so a crash handler may call it with modes saved beforehand.
    public static func restore(descriptor: Int32, _ modes: UnsafeMutablePointer<Modes>) {
        _ = ioctl(descriptor, cld_KDSETMODE, modes.pointee.display)
        _ = ioctl(descriptor, cld_VT_SETMODE, &modes.pointee.switching)
    }
}

/// The guard `Console.guardModes` started; `dismiss()` ends it without a restore.
public struct ConsoleGuard: Sendable {
    /// The write end of the guard's pipe: a byte dismisses it, end of file restores.
    public let descriptor: Int32

    /// Tells the guard the console was put back: it exits without touching it.
    public func dismiss() {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
        close(descriptor)
    }
}
