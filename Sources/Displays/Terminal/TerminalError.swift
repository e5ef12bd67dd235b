// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import SystemPackage
import LibC

/// Why the terminal could not be taken over; each says what to do next.
public enum TerminalError: Error, CustomStringConvertible {
    /// The descriptor is a pipe, a file or a device other than a terminal.
    /// `detail` says which, e.g. "a pipe".
    case notATerminal(descriptor: Int32, detail: String)
    /// `tcgetattr`/`tcsetattr` failed on the terminal.
    case attributes(operation: String, descriptor: Int32, errno: Int32)
    /// Another `TerminalSession` has the terminal; restore it first.
    case sessionAlreadyActive

    public var description: String {
        switch self {
        case .notATerminal(let descriptor, let detail):
            let stream = Self.streamName(descriptor)
            return "\(stream) is not a terminal (it is \(detail)): `tiltmaze play` draws a full-screen game "
                + "and needs one. Run it in a terminal, or use `tiltmaze monitor --json` for piped output."
        case .attributes(let operation, let descriptor, let code):
            return "\(operation) failed on \(Self.streamName(descriptor)): \(String(cString: strerror(code))) "
                + "(errno \(code)); the terminal settings were left unchanged."
        case .sessionAlreadyActive:
            return "the terminal is already in use by another TerminalSession; restore() it before starting a new one."
        }
    }

    static func streamName(_ descriptor: Int32) -> String {
        switch descriptor {
        case 0: "standard input"
        case 1: "standard output"
        case 2: "standard error"
        default: "file descriptor \(descriptor)"
        }
    }

    /// What a non-terminal descriptor is, for the message.
    static func describeNonTerminal(_ descriptor: Int32) -> String {
        guard let info = try? FileDescriptor(rawValue: descriptor).stat() else { return "not open" }
        switch info.type {
        case .fifo: return "a pipe"
        case .regular: return "a file"
        case .socket: return "a socket"
        case .characterSpecial: return "a character device such as /dev/null"
        default: return "not a terminal device"
        }
    }
}
