// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import LibC
import SystemCalls

/// Builds a layout from (id, index, _type text) triples.
func layout(_ items: [(String, Int, String)]) throws -> IIOScanLayout {
    try IIOScanLayout(elements: items.map { ($0.0, $0.1, try IIOScanFormat(parsing: $0.2)) })
}

@Suite("Scan layout: offsets by the kernel's alignment rules")
struct ScanLayoutTests {
    let s16be = "be:s16/16>>0", s16le = "le:s16/16>>0", ts = "le:s64/64>>0"

    @Test("MPU-6050 with everything: seven s16 values, 2 bytes of padding, timestamp at 16, 24 bytes")
    func mpu6050Layout() throws {
        let l = try layout([("accel_x", 0, s16be), ("accel_y", 1, s16be), ("accel_z", 2, s16be), ("temp", 3, s16be),
                            ("anglvel_x", 4, s16be), ("anglvel_y", 5, s16be), ("anglvel_z", 6, s16be),
                            ("timestamp", 7, ts)])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 6, 8, 10, 12, 16])
        #expect(l.scanSize == 24)
    }

    @Test("three s16 values and a timestamp: the timestamp is aligned to 8, scan of 16 bytes")
    func timestampPadding() throws {
        let l = try layout([("accel_x", 0, s16le), ("accel_y", 1, s16le), ("accel_z", 2, s16le), ("timestamp", 3, ts)])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(l.scanSize == 16)
    }

    @Test("a timestamp alone takes 8 bytes at offset 0")
    func timestampAlone() throws {
        let l = try layout([("timestamp", 7, ts)])
        #expect(l.elements.map(\.offset) == [0])
        #expect(l.scanSize == 8)
    }

    @Test("the scan is padded to a multiple of its largest element")
    func endPadding() throws {
        let l = try layout([("a", 0, "le:s32/32>>0"), ("b", 1, s16le)])
        #expect(l.elements.map(\.offset) == [0, 4])
        #expect(l.scanSize == 8)
    }

    @Test("each element is aligned to its own size")
    func elementAlignment() throws {
        let l = try layout([("a", 0, "le:u8/8>>0"), ("b", 1, s16le), ("c", 2, "le:u8/8>>0"), ("d", 3, "be:s32/32>>0")])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(l.scanSize == 12)
    }

    @Test("a repeated element is aligned to its whole size (storage × repeat)")
    func repeatAlignment() throws {
        let l = try layout([("a", 0, s16le), ("quat", 1, "le:s16/16X4>>0")])
        #expect(l.elements.map(\.offset) == [0, 8])
        #expect(l.scanSize == 16)
    }

    @Test("elements are ordered by scan index, whatever order they are given in")
    func sortsByScanIndex() throws {
        let l = try layout([("timestamp", 3, ts), ("accel_z", 2, s16le), ("accel_x", 0, s16le), ("accel_y", 1, s16le)])
        #expect(l.elements.map(\.channelID) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(l.elementIndex(of: "timestamp") == 3)
        #expect(l.elementIndex(of: "anglvel_x") == nil)
    }

    @Test("gaps in the scan indexes (disabled channels) take no room")
    func gapsTakeNoRoom() throws {
        let l = try layout([("accel_x", 0, s16be), ("anglvel_z", 6, s16be), ("timestamp", 7, ts)])
        #expect(l.elements.map(\.offset) == [0, 2, 8])
        #expect(l.scanSize == 16)
    }

    @Test("an element whose size is not a power of two is refused with ENOTSUP")
    func refusesOddElementSize() {
        #expect { try layout([("a", 0, s16le), ("b", 1, "le:s16/16X3>>0")]) } throws: { error in
            guard let e = error as? IIOError else { return false }
            return e.errno == ENOTSUP && e.path == "b" && e.description.contains("6 bytes")
        }
    }

    @Test("no elements: an empty layout")
    func empty() throws {
        let l = try IIOScanLayout(elements: [])
        #expect(l.elements.isEmpty)
        #expect(l.scanSize == 0)
    }
}
