// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Appends bytes to a buffer that was sized for the worst case in advance:
/// the one place escape sequences, decimal numbers and UTF-8 are spelled out
/// by hand, so composing output never builds a `String` or grows an `Array`.
///
/// Capacity is the caller's promise (checked in debug builds only), which is
/// what keeps the per-byte cost to a store and an increment.
package struct ByteWriter {
    package let base: UnsafeMutablePointer<UInt8>
    package let capacity: Int
    package private(set) var count = 0

    package init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.init(base: buffer.baseAddress!, capacity: buffer.count)
    }

    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    package mutating func reset() { count = 0 }

    @inline(__always)
    package mutating func append(_ byte: UInt8) {
        assert(count < capacity, "ByteWriter overflow: the worst-case size was underestimated")
        base[count] = byte
        count &+= 1
    }

    package mutating func append(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        assert(count + n <= capacity, "ByteWriter overflow: the worst-case size was underestimated")
        (base + count).update(from: text.utf8Start, count: n)
        count &+= n
    }

    package mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let start = text.baseAddress, !text.isEmpty else { return }
        assert(count + text.count <= capacity, "ByteWriter overflow: the worst-case size was underestimated")
        (base + count).update(from: start, count: text.count)
        count &+= text.count
    }

    /// A non-negative integer in decimal, without leading zeros.
    package mutating func appendDecimal(_ value: Int) {
        var v = max(value, 0)
        var digits = 1
        var scale = 1
        while v / scale >= 10 { scale &*= 10; digits &+= 1 }
        for _ in 0 ..< digits {
            append(UInt8(truncatingIfNeeded: 48 + v / scale))
            v %= scale
            scale /= 10
        }
    }

    /// A non-negative integer padded with leading zeros to at least `width` digits.
    package mutating func appendDecimal(_ value: Int, width: Int) {
        var digits = 1
        var v = max(value, 0)
        while v >= 10 { v /= 10; digits &+= 1 }
        for _ in digits ..< max(width, digits) { append(UInt8(ascii: "0")) }
        appendDecimal(value)
    }

    /// One scalar as UTF-8 (1…4 bytes).
    @inline(__always)
    package mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        switch v {
        case 0 ..< 0x80:
            append(UInt8(truncatingIfNeeded: v))
        case 0x80 ..< 0x800:
            append(UInt8(truncatingIfNeeded: 0xC0 | v >> 6))
            append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        case 0x800 ..< 0x10000:
            append(UInt8(truncatingIfNeeded: 0xE0 | v >> 12))
            append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
            append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        default:
            append(UInt8(truncatingIfNeeded: 0xF0 | v >> 18))
            append(UInt8(truncatingIfNeeded: 0x80 | v >> 12 & 0x3F))
            append(UInt8(truncatingIfNeeded: 0x80 | v >> 6 & 0x3F))
            append(UInt8(truncatingIfNeeded: 0x80 | v & 0x3F))
        }
    }

    /// Seconds with a fixed number of decimals, truncated (a running clock
    /// should not show a tenth before it has passed): 12.34 → "12.3".
    package mutating func appendSeconds(_ seconds: Double, decimals: Int) {
        var scale = 1
        for _ in 0 ..< decimals { scale &*= 10 }
        // Clamp so NaN, negatives and absurd values cannot trap the conversion.
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 9_999_999)
        // The epsilon keeps 4.35 from printing as 4.34 (4.35 × 100 = 434.999…).
        let fixed = Int((clamped * Double(scale) + 1e-6).rounded(.down))
        appendDecimal(fixed / scale)
        if decimals > 0 {
            append(UInt8(ascii: "."))
            appendDecimal(fixed % scale, width: decimals)
        }
    }
}
