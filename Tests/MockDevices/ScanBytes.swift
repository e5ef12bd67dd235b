// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Bytes of scans as a driver would push them, written out field by field so
/// a test states the layout it expects (and does not borrow the code under test).
///
/// ```
/// var scan = ScanBytes()
/// scan.be16(100); scan.be16(-2); scan.be16(16384)   // accel x, y, z
/// scan.pad(to: 8); scan.le64(1_000_000)             // timestamp, 8-aligned
/// ```
public struct ScanBytes: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func s8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }
    public mutating func be16(_ v: Int16) { be(UInt64(UInt16(bitPattern: v)), 2) }
    public mutating func le16(_ v: Int16) { le(UInt64(UInt16(bitPattern: v)), 2) }
    public mutating func be16u(_ v: UInt16) { be(UInt64(v), 2) }
    public mutating func le16u(_ v: UInt16) { le(UInt64(v), 2) }
    public mutating func be32(_ v: Int32) { be(UInt64(UInt32(bitPattern: v)), 4) }
    public mutating func le32(_ v: Int32) { le(UInt64(UInt32(bitPattern: v)), 4) }
    public mutating func be32u(_ v: UInt32) { be(UInt64(v), 4) }
    public mutating func le32u(_ v: UInt32) { le(UInt64(v), 4) }
    public mutating func be64(_ v: Int64) { be(UInt64(bitPattern: v), 8) }
    public mutating func le64(_ v: Int64) { le(UInt64(bitPattern: v), 8) }

    /// Zero bytes until the length is a multiple of `alignment`.
    public mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Appends raw bytes.
    public mutating func raw(_ more: [UInt8]) { bytes += more }

    private mutating func be(_ v: UInt64, _ n: Int) {
        for i in (0..<n).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) }
    }

    private mutating func le(_ v: UInt64, _ n: Int) {
        for i in 0..<n { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) }
    }
}
