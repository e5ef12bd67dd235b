// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import LibC
import SystemCalls

@Suite("Scan formats: the sysfs _type text")
struct ScanFormatTests {
    @Test("le:s12/16>>4 is little-endian, signed, 12 bits in 16, shifted by 4")
    func parsesShiftedSigned() throws {
        let f = try IIOScanFormat(parsing: "le:s12/16>>4")
        #expect(f.endianness == .little)
        #expect(f.isSigned)
        #expect(f.bits == 12)
        #expect(f.storageBits == 16)
        #expect(f.shift == 4)
        #expect(f.repeatCount == 1)
        #expect(f.storageBytes == 2)
        #expect(f.size == 2)
    }

    @Test("be:u32/32>>0 is big-endian and unsigned")
    func parsesBigEndianUnsigned() throws {
        let f = try IIOScanFormat(parsing: "be:u32/32>>0")
        #expect(f.endianness == .big)
        #expect(!f.isSigned)
        #expect(f.bits == 32 && f.storageBits == 32 && f.shift == 0)
    }

    @Test("le:s16/16X2>>0 repeats the value twice: 4 bytes in the scan")
    func parsesRepeat() throws {
        let f = try IIOScanFormat(parsing: "le:s16/16X2>>0")
        #expect(f.repeatCount == 2)
        #expect(f.size == 4)
        #expect(f.description == "le:s16/16X2>>0")
    }

    @Test("the kernel's trailing newline is accepted, and S/U (fully defined) mean signed/unsigned")
    func acceptsNewlineAndUppercaseSign() throws {
        #expect(try IIOScanFormat(parsing: "le:s64/64>>0\n").description == "le:s64/64>>0")
        #expect(try IIOScanFormat(parsing: "be:S16/16>>0").isSigned)
        #expect(try !IIOScanFormat(parsing: "be:U16/16>>0").isSigned)
    }

    @Test("description gives back the sysfs form", arguments: ["le:s12/16>>4", "be:u32/32>>0", "le:s64/64>>0", "be:s16/16>>0", "le:u8/8>>0"])
    func roundTrips(_ text: String) throws {
        #expect(try IIOScanFormat(parsing: text).description == text)
    }

    @Test("malformed text fails with EINVAL, quotes it and shows the expected form",
          arguments: ["", "garbage", "le:s12", "le:s16/16>>", "le:s16/16", "xe:s16/16>>0", "le:q16/16>>0",
                      "le:s16/16>>0 junk", "le:s-1/16>>0", "le:s16/16X>>0", "le:s16/+16>>0", "le s16/16>>0"])
    func rejectsMalformed(_ text: String) {
        #expect {
            _ = try IIOScanFormat(parsing: text, source: "/sys/bus/iio/devices/iio:device0/scan_elements/in_accel_x_type")
        } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == EINVAL
                && e.path == "/sys/bus/iio/devices/iio:device0/scan_elements/in_accel_x_type"
                && e.description.contains("\"\(text)\"")
                && e.description.contains("le:s12/16>>4")
        }
    }

    @Test("well-formed but undecodable formats fail with ENOTSUP and say why",
          arguments: [("le:s12/24>>0", "24 bits"), ("le:s20/16>>0", "do not fit"), ("le:s12/16>>8", "shift of 8"),
                      ("le:s0/16>>0", "at least one"), ("le:s16/16X0>>0", "repeat"), ("be:u128/128>>0", "128 bits")])
    func rejectsUnsupported(_ text: String, _ reason: String) {
        #expect {
            _ = try IIOScanFormat(parsing: text)
        } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == ENOTSUP && e.description.contains(reason)
        }
    }

    @Test("formats can be built directly, with the same checks")
    func buildsDirectly() throws {
        let f = try IIOScanFormat(endianness: .big, isSigned: true, bits: 16, storageBits: 16)
        #expect(f == (try IIOScanFormat(parsing: "be:s16/16>>0")))
        #expect(throws: IIOError.self) { try IIOScanFormat(endianness: .little, isSigned: true, bits: 12, storageBits: 12) }
    }
}
