// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import CIIO
import LibC
import SystemCalls

/// How one scan element is stored in a scan: the kernel's
/// `scan_elements/<channel>_type`, e.g. `le:s12/16>>4` — little-endian,
/// signed, 12 significant bits in 16 bits of storage, shifted left by 4.
///
/// Only formats this module can decode exist: storage of 8, 16, 32 or 64
/// bits, 1 ≤ bits, bits + shift ≤ storage, repeat ≥ 1. Anything else is
/// refused when the value is made, with an error that quotes the format.
public struct IIOScanFormat: Hashable, Sendable, CustomStringConvertible {
    public enum Endianness: Hashable, Sendable {
        case little, big
    }

    /// Byte order of the stored value (`le`/`be`).
    public let endianness: Endianness
    /// Whether the significant bits are two's complement (`s`) or not (`u`).
    public let isSigned: Bool
    /// Significant bits (the `12` of `s12/16`).
    public let bits: Int
    /// Bits of storage (the `16` of `s12/16`): 8, 16, 32 or 64.
    public let storageBits: Int
    /// Right shift that brings the significant bits down to bit 0 (`>>4`).
    public let shift: Int
    /// How many values of this format follow each other (`X2`), 1 when absent.
    public let repeatCount: Int

    /// Makes a format, refusing any this module cannot decode (ENOTSUP).
    /// `source` names where it came from (a sysfs file) for the error.
    public init(endianness: Endianness, isSigned: Bool, bits: Int, storageBits: Int, shift: Int = 0,
                repeatCount: Int = 1, source: String? = nil) throws(IIOError) {
        self.endianness = endianness
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
        if let problem = unsupportedBecause {
            throw IIOError(errno: ENOTSUP, operation: "use scan format \(description)",
                           path: source ?? description, detail: problem)
        }
    }

    /// Parses the sysfs text form: `[bl]e:[sSuU]<bits>/<storage>[X<repeat>]>><shift>`,
    /// e.g. `le:s12/16>>4`, `be:u32/32>>0`, `le:s16/16X2>>0`; a trailing
    /// newline is allowed. Malformed text fails with EINVAL, a well-formed
    /// but undecodable format with ENOTSUP; both quote the text and name
    /// `source` (the `_type` file) when given.
    public init(parsing text: String, source: String? = nil) throws(IIOError) {
        let trimmed = trimmedAttributeText(text)
        guard let fields = ScanFormatText(trimmed) else {
            throw IIOError(errno: EINVAL, operation: "parse scan format \"\(trimmed)\"", path: source ?? "\"\(trimmed)\"",
                           detail: "expected the kernel's form [bl]e:[su]BITS/STORAGE[XREPEAT]>>SHIFT, e.g. le:s12/16>>4")
        }
        try self.init(endianness: fields.bigEndian ? .big : .little, isSigned: fields.signed, bits: fields.bits,
                      storageBits: fields.storage, shift: fields.shift, repeatCount: fields.repeatCount,
                      source: source)
    }

    /// From libiio's `iio_data_format` (`iio_channel_get_data_format`), which
    /// libiio filled by parsing the same `_type` text.
    init(_ format: iio_data_format, source: String) throws(IIOError) {
        try self.init(endianness: format.is_be ? .big : .little, isSigned: format.is_signed, bits: Int(format.bits),
                      storageBits: Int(format.length), shift: Int(format.shift),
                      repeatCount: Int(max(format.repeat, 1)), source: source)
    }

    /// Bytes of storage for one value: `storageBits / 8`.
    public var storageBytes: Int { storageBits / 8 }

    /// Bytes the element takes in a scan: storage times repeat.
    public var size: Int { storageBytes * repeatCount }

    /// The sysfs text form, e.g. "le:s12/16>>4".
    public var description: String {
        let repeatText = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(endianness == .big ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatText)>>\(shift)"
    }

    /// Why this format cannot be decoded, or nil when it can.
    private var unsupportedBecause: String? {
        if ![8, 16, 32, 64].contains(storageBits) {
            return "storage of \(storageBits) bits is not supported (only 8, 16, 32 or 64)"
        }
        if bits < 1 { return "a value needs at least one significant bit" }
        if bits > storageBits { return "\(bits) significant bits do not fit in \(storageBits) bits of storage" }
        if shift < 0 || shift + bits > storageBits {
            return "a shift of \(shift) with \(bits) significant bits does not fit in \(storageBits) bits of storage"
        }
        if repeatCount < 1 { return "a repeat count must be at least 1" }
        return nil
    }
}

/// The fields of a `_type` text, parsed strictly (no partial matches, no
/// sign or blanks inside numbers), so clipped or garbage text is caught.
private struct ScanFormatText {
    var bigEndian = false, signed = false
    var bits = 0, storage = 0, repeatCount = 1, shift = 0

    init?(_ text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("le:") { bigEndian = false } else if rest.hasPrefix("be:") { bigEndian = true } else { return nil }
        rest = rest.dropFirst(3)
        switch rest.first {
        case "s", "S": signed = true
        case "u", "U": signed = false
        default: return nil
        }
        rest = rest.dropFirst()
        guard let b = Self.number(&rest), rest.first == "/" else { return nil }
        bits = b
        rest = rest.dropFirst()
        guard let s = Self.number(&rest) else { return nil }
        storage = s
        if rest.first == "X" {
            rest = rest.dropFirst()
            guard let r = Self.number(&rest) else { return nil }
            repeatCount = r
        }
        guard rest.hasPrefix(">>") else { return nil }
        rest = rest.dropFirst(2)
        guard let sh = Self.number(&rest), rest.isEmpty else { return nil }
        shift = sh
    }

    /// Up to four decimal digits, consumed from the front of `text`.
    private static func number(_ text: inout Substring) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 4, let value = Int(digits) else { return nil }
        text = text.dropFirst(digits.count)
        return value
    }
}
