// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("Formatting numbers into bytes")
struct TextFormattingTests {
    func format(_ body: (inout ByteWriter) -> Void) -> String {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        var writer = ByteWriter(buffer)
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func secondsAreTruncatedToTheGivenDecimals() {
        #expect(format { $0.appendSeconds(12.34, decimals: 1) } == "12.3")
        #expect(format { $0.appendSeconds(12.349, decimals: 2) } == "12.34")
        #expect(format { $0.appendSeconds(4.35, decimals: 2) } == "4.35")
        #expect(format { $0.appendSeconds(0.05, decimals: 1) } == "0.0")
        #expect(format { $0.appendSeconds(7, decimals: 2) } == "7.00")
    }

    @Test func nonsenseSecondsShowAsZero() {
        #expect(format { $0.appendSeconds(-3, decimals: 1) } == "0.0")
        #expect(format { $0.appendSeconds(.nan, decimals: 1) } == "0.0")
    }

    @Test func integersAreDecimal() {
        #expect(format { $0.appendDecimal(0) } == "0")
        #expect(format { $0.appendDecimal(1_234_567) } == "1234567")
        #expect(format { $0.appendDecimal(5, width: 3) } == "005")
    }

    @Test func scalarsAreUTF8() {
        #expect(format { $0.appendUTF8("A"); $0.appendUTF8("é"); $0.appendUTF8("\u{2580}"); $0.appendUTF8("🙂") }
                == "Aé\u{2580}🙂")
    }
}
