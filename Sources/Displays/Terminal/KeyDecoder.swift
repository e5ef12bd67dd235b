// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Controls

/// Turns the bytes a raw-mode terminal sends into `Key`s.
///
/// A read can end in the middle of an escape sequence (`ESC` in one read,
/// `[A` in the next), so the decoder is a small state machine that carries a
/// partial sequence over to the next chunk. A lone `ESC` is ambiguous until
/// time passes without more bytes: the caller waits briefly and then calls
/// `flush`, which reports it as Escape.
///
/// Pure and allocation-free: keys go to a non-escaping closure.
public struct KeyDecoder: Sendable {
    enum State: Sendable {
        case ground
        /// Seen `ESC`.
        case escape
        /// Inside `ESC [` … up to the final byte; counts bytes to give up on
        /// garbage, and keeps the first number (`ESC [ 24 ~` is F12).
        case controlSequence(length: Int, number: Int, numberEnded: Bool)
        /// Seen `ESC O` (SS3; what arrows send in application cursor mode).
        case singleShift
    }

    private var state = State.ground

    /// Longest CSI we wait for before treating it as noise.
    static let maxSequenceLength = 32

    public init() {}

    /// Whether a partial escape sequence is waiting for more bytes.
    public var hasPending: Bool {
        if case .ground = state { return false }
        return true
    }

    /// Decodes a chunk, reporting each complete key.
    public mutating func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, _ handle: (Key) -> Void) {
        for byte in bytes { decode(byte, handle) }
    }

    /// Ends a pending sequence because no more bytes came: a lone `ESC` is the
    /// Escape key; a cut-off `ESC [` or `ESC O` is dropped (or reported as
    /// Escape then the letter, for `ESC O`, which is also Alt-Shift-O).
    public mutating func flush(_ handle: (Key) -> Void) {
        switch state {
        case .ground, .controlSequence: break
        case .escape: handle(.escape)
        case .singleShift:
            handle(.escape)
            handle(.character(UInt8(ascii: "O")))
        }
        state = .ground
    }

    public mutating func decode(_ byte: UInt8, _ handle: (Key) -> Void) {
        switch state {
        case .ground:
            if byte == 0x1B { state = .escape } else { handle(Self.plainKey(byte)) }
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence(length: 0, number: 0, numberEnded: false)
            case UInt8(ascii: "O"): state = .singleShift
            case 0x1B: handle(.escape) // Escape pressed twice: the first one is complete.
            default:
                // Alt-<key> or Escape followed quickly by a key: report both.
                handle(.escape)
                state = .ground
                handle(Self.plainKey(byte))
            }
        case .controlSequence(let length, let number, let numberEnded):
            switch byte {
            case 0x40 ... 0x7E: // Final byte; parameters after the first (`1;5`: Ctrl) are ignored.
                if let arrow = Self.arrow(byte) {
                    handle(arrow)
                } else if byte == UInt8(ascii: "~"), let key = Self.functionKey(number) {
                    handle(key)
                }
                state = .ground
            case 0x30 ... 0x39 where length < Self.maxSequenceLength && !numberEnded:
                state = .controlSequence(length: length + 1, number: min(number * 10 + Int(byte - 0x30), 9999), numberEnded: false)
            case 0x20 ... 0x3F where length < Self.maxSequenceLength:
                // Anything else (a `;`, a later number) ends the first number.
                state = .controlSequence(length: length + 1, number: number, numberEnded: true)
            default:
                // Not part of a CSI: the sequence was noise; start over with this byte.
                state = .ground
                decode(byte, handle)
            }
        case .singleShift:
            state = .ground
            if let arrow = Self.arrow(byte) { handle(arrow) }
        }
    }

    /// `ESC [ n ~` as xterm and the Linux console send F5…F12.
    static func functionKey(_ number: Int) -> Key? {
        switch number {
        case 15: .function(5)
        case 17: .function(6)
        case 18: .function(7)
        case 19: .function(8)
        case 20: .function(9)
        case 21: .function(10)
        case 23: .function(11)
        case 24: .function(12)
        default: nil
        }
    }

    @inline(__always)
    static func arrow(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }

    @inline(__always)
    static func plainKey(_ byte: UInt8) -> Key {
        switch byte {
        case 3: .interrupt
        case 26: .suspend
        case 10, 13: .enter
        case UInt8(ascii: " "): .space
        default: .character(byte)
        }
    }
}
