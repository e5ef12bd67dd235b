// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices

/// Decodes element 0 of a one-element layout of `format` from `bytes`.
func decode(_ format: String, _ bytes: [UInt8]) throws -> Int64 {
    let l = try layout([("v", 0, format)])
    return bytes.withUnsafeBytes { l.rawValue(of: 0, in: $0) }
}

@Suite("Raw values: byte order, shift, mask, sign")
struct RawValueDecodingTests {
    @Test("big-endian signed 16-bit")
    func bigEndianSigned() throws {
        #expect(try decode("be:s16/16>>0", [0xFF, 0xFE]) == -2)
        #expect(try decode("be:s16/16>>0", [0x40, 0x00]) == 16384)
        #expect(try decode("be:s16/16>>0", [0x80, 0x00]) == -32768)
    }

    @Test("little-endian signed 16-bit")
    func littleEndianSigned() throws {
        #expect(try decode("le:s16/16>>0", [0xFE, 0xFF]) == -2)
        #expect(try decode("le:s16/16>>0", [0x00, 0x40]) == 16384)
    }

    @Test("unsigned values are not sign-extended")
    func unsigned() throws {
        #expect(try decode("be:u16/16>>0", [0xFF, 0xFE]) == 65534)
        #expect(try decode("le:u16/16>>0", [0xFE, 0xFF]) == 65534)
        #expect(try decode("le:u8/8>>0", [0xFF]) == 255)
        #expect(try decode("le:s8/8>>0", [0xFF]) == -1)
    }

    @Test("a shifted 12-bit value: shifted down, the low garbage bits dropped, sign-extended from bit 11")
    func shiftedTwelveBit() throws {
        // -5 in 12 bits is 0xFFB; stored << 4 with 0xF of noise below: 0xFFBF.
        #expect(try decode("le:s12/16>>4", [0xBF, 0xFF]) == -5)
        #expect(try decode("be:s12/16>>4", [0xFF, 0xBF]) == -5)
        #expect(try decode("le:u12/16>>4", [0xBF, 0xFF]) == 0xFFB)
        #expect(try decode("le:s12/16>>4", [0xF0, 0x7F]) == 2047)
    }

    @Test("bits above the value are masked off before sign extension")
    func masksHighBits() throws {
        // 10 significant bits at shift 2; the top 4 bits are noise. Value 0x1FF (511), then -512.
        #expect(try decode("be:s10/16>>2", [0xF7, 0xFC]) == 511)
        #expect(try decode("be:s10/16>>2", [0xF8, 0x00]) == -512)
        #expect(try decode("be:u10/16>>2", [0xF8, 0x00]) == 512)
    }

    @Test("32-bit values in both byte orders, and 24 bits in 32 with a shift")
    func thirtyTwoBit() throws {
        #expect(try decode("be:s32/32>>0", [0xFF, 0xFF, 0xFF, 0xFE]) == -2)
        #expect(try decode("le:s32/32>>0", [0xFE, 0xFF, 0xFF, 0xFF]) == -2)
        #expect(try decode("be:u32/32>>0", [0xFF, 0xFF, 0xFF, 0xFE]) == 4_294_967_294)
        #expect(try decode("le:s24/32>>8", [0x00, 0xFE, 0xFF, 0xFF]) == -2)
        #expect(try decode("le:s24/32>>0", [0x01, 0x00, 0x80, 0x7F]) == -8_388_607)
    }

    @Test("64-bit timestamps, and unsigned 64-bit values as their bit pattern")
    func sixtyFourBit() throws {
        var s = ScanBytes()
        s.le64(1_700_000_000_123_456_789)
        #expect(try decode("le:s64/64>>0", s.bytes) == 1_700_000_000_123_456_789)
        s = ScanBytes()
        s.be64(-42)
        #expect(try decode("be:s64/64>>0", s.bytes) == -42)
        #expect(try decode("le:u64/64>>0", Array(repeating: 0xFF, count: 8)) == -1)
    }

    @Test("each repetition of a repeated element is read at its own offset")
    func repetitions() throws {
        let l = try layout([("quat", 0, "le:s16/16X4>>0")])
        var s = ScanBytes()
        for v: Int16 in [1, -2, 3, -4] { s.le16(v) }
        let values = s.bytes.withUnsafeBytes { scan in (0..<4).map { l.rawValue(of: 0, repetition: $0, in: scan) } }
        #expect(values == [1, -2, 3, -4])
    }

    @Test("scans need not be aligned in memory")
    func unalignedScan() throws {
        let l = try layout([("a", 0, "le:s16/16>>0"), ("t", 1, "le:s64/64>>0")])
        var s = ScanBytes()
        s.u8(0xAA)  // one stray byte in front
        s.le16(-7); s.raw([0, 0, 0, 0, 0, 0]); s.le64(123_456_789)
        let (a, t) = s.bytes.withUnsafeBytes { all in
            let scan = UnsafeRawBufferPointer(rebasing: all[1...])
            return (l.rawValue(of: 0, in: scan), l.rawValue(of: 1, in: scan))
        }
        #expect(a == -7)
        #expect(t == 123_456_789)
    }

    @Test("a whole MPU-6050 scan decodes element by element")
    func wholeScan() throws {
        let s16 = "be:s16/16>>0"
        let l = try layout([("accel_x", 0, s16), ("accel_y", 1, s16), ("accel_z", 2, s16), ("temp", 3, s16),
                            ("anglvel_x", 4, s16), ("anglvel_y", 5, s16), ("anglvel_z", 6, s16),
                            ("timestamp", 7, "le:s64/64>>0")])
        let bytes = mpu6050Scan(accel: (-100, 200, 16384), temp: -1234, gyro: (7, -8, 9), timestamp: 987_654_321)
        #expect(bytes.count == l.scanSize)
        let values = bytes.withUnsafeBytes { scan in (0..<8).map { l.rawValue(of: $0, in: scan) } }
        #expect(values == [-100, 200, 16384, -1234, 7, -8, 9, 987_654_321])
    }
}
