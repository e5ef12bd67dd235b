// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import MockDevices

/// An accelerometer whose elements use every kind of format: shifted signed
/// little-endian, unsigned big-endian, 24 bits in 32 with a shift, an
/// unsigned byte, and the timestamp.
func mixedFormatDevice() -> MockIIODevice {
    MockIIODevice(
        name: "mixed-accel",
        channels: [
            .scanElement("accel", "x", index: 0, format: "le:s12/16>>4"),
            .scanElement("accel", "y", index: 1, format: "be:u16/16>>0"),
            .scanElement("accel", "z", index: 2, format: "le:s24/32>>8"),
            .scanElement("temp", index: 3, format: "le:u8/8>>0"),
            .timestamp(index: 4),
        ],
        attributes: ["in_accel_scale": "0.0383"])
}

extension MockDeviceSuites {
    @Suite("Mixed formats through libiio: shifted, unsigned, big- and little-endian", .enabled(if: UmockdevPreload.isActive))
    struct MixedFormats {
        @Test("libiio's formats for each element match the _type files")
        func formatsFromLibiio() throws {
            try MockDeviceSuites.withContext([mixedFormatDevice()]) { _, context in
                let device = try context.requireDevice(named: "mixed-accel")
                let formats = try device.channels.filter(\.isScanElement).map { try $0.format.description }
                #expect(formats == ["le:s12/16>>4", "be:u16/16>>0", "le:s24/32>>8", "le:u8/8>>0", "le:s64/64>>0"])
            }
        }

        @Test("a scan decodes to the exact raw values: shift, mask, sign and byte order applied")
        func decodesMixedScan() throws {
            let mixed = mixedFormatDevice()
            try MockDeviceSuites.withContext([mixed]) { testbed, context in
                let device = try context.requireDevice(named: "mixed-accel")
                for channel in device.channels where channel.isScanElement { channel.enable() }
                let buffer = try IIOBuffer(device: device, sampleCount: 4)
                #expect(buffer.layout.elements.map(\.offset) == [0, 2, 4, 8, 16])
                #expect(buffer.layout.scanSize == 24)
                var scan = ScanBytes()
                scan.le16u(0xFFBF)          // x: -5 in 12 bits, shifted by 4, noise in the low 4 bits
                scan.be16u(0xFFFE)          // y: 65534
                scan.le32u(0x8000_01AA)     // z: 0x800001 (−8388607) above 8 bits of noise
                scan.u8(200)                // temp: 200
                scan.pad(to: 8)
                scan.le64(-1)               // timestamp
                try testbed.writeScans(scan.bytes, to: mixed.devicePath)
                let values = decodeAll(try buffer.read(waitingUpTo: .seconds(5)).received, buffer.layout)
                #expect(values == [[-5, 65534, -8_388_607, 200, -1]])
            }
        }
    }
}

@Suite("Mixed-format mock tests, run under umockdev-wrapper")
struct MixedFormatsUnderPreload {
    @Test("the mixed-format mock suite passes under the preload", .enabled(if: !UmockdevPreload.isActive))
    func passes() throws {
        try MockDeviceSuites.expectPassesUnderPreload("MixedFormats")
    }
}
