// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Controls
@testable import Displays
import Render

@Suite("Key decoding")
struct KeyDecoderTests {
    /// Keys from the chunks, fed one after another, then flushed.
    func keys(_ chunks: [UInt8]..., flush: Bool = true) -> [Key] {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for chunk in chunks { decoder.decode(chunk) { keys.append($0) } }
        if flush { decoder.flush { keys.append($0) } }
        return keys
    }

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func csiArrowsDecode() {
        #expect(keys(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
    }

    @Test func ss3ArrowsDecode() {
        #expect(keys(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD")) == [.up, .down, .right, .left])
    }

    @Test func lettersStayLetters() {
        // The game reads WASD as arrows (GameInput); ColorTilt reads a and g as themselves.
        #expect(keys(bytes("waG")) == [.character(UInt8(ascii: "w")), .character(UInt8(ascii: "a")), .character(UInt8(ascii: "G"))])
    }

    @Test func spaceEnterAndCtrlCHaveTheirOwnKeys() {
        #expect(keys([32, 13, 10, 3]) == [.space, .enter, .enter, .interrupt])
    }

    @Test func letterKeysArriveAsCharacters() {
        #expect(keys(bytes("prqQ")) == [.character(UInt8(ascii: "p")), .character(UInt8(ascii: "r")),
                                         .character(UInt8(ascii: "q")), .character(UInt8(ascii: "Q"))])
    }

    @Test func aLoneEscapeWaitsForTheFlush() {
        var decoder = KeyDecoder()
        var seen: [Key] = []
        decoder.decode([0x1B]) { seen.append($0) }
        #expect(seen.isEmpty)
        #expect(decoder.hasPending)
        decoder.flush { seen.append($0) }
        #expect(seen == [.escape])
        #expect(!decoder.hasPending)
    }

    @Test func aSequenceSplitAfterEscapeIsCompletedByTheNextChunk() {
        #expect(keys([0x1B], bytes("[A"), flush: false) == [.up])
    }

    @Test func aSequenceSplitAfterTheBracketIsCompletedByTheNextChunk() {
        #expect(keys(bytes("x\u{1B}["), bytes("D"), flush: false) == [.character(UInt8(ascii: "x")), .left])
    }

    @Test func aSequenceSplitInItsParametersIsCompletedByTheNextChunk() {
        #expect(keys(bytes("\u{1B}[1;"), bytes("5C"), flush: false) == [.right])
    }

    @Test func anSS3SequenceSplitAfterTheOIsCompletedByTheNextChunk() {
        #expect(keys(bytes("\u{1B}O"), bytes("B"), flush: false) == [.down])
    }

    @Test func otherControlSequencesAreIgnored() {
        #expect(keys(bytes("\u{1B}[5~\u{1B}[200~q")) == [.character(UInt8(ascii: "q"))])
    }

    @Test func escapeFollowedByALetterIsEscapeThenTheLetter() {
        #expect(keys(bytes("\u{1B}q")) == [.escape, .character(UInt8(ascii: "q"))])
    }

    @Test func twoEscapesAreTwoEscapeKeys() {
        #expect(keys([0x1B, 0x1B]) == [.escape, .escape])
    }

    @Test("function keys F5…F12 as xterm and the Linux console send them; other CSI ~ sequences are dropped")
    func functionKeys() {
        #expect(keys(Array("\u{1B}[24~".utf8)) == [.function(12)])
        #expect(keys(Array("\u{1B}[15~\u{1B}[21~".utf8)) == [.function(5), .function(10)])
        #expect(keys(Array("\u{1B}[2".utf8), Array("4~q".utf8)) == [.function(12), .character(UInt8(ascii: "q"))])
        #expect(keys(Array("\u{1B}[3~".utf8)) == [])
        // Only the first number counts: Shift-F12 (ESC [ 24 ; 2 ~) is still F12, ESC [ 1 ; 24 ~ is not.
        #expect(keys(Array("\u{1B}[24;2~".utf8)) == [.function(12)])
        #expect(keys(Array("\u{1B}[1;24~".utf8)) == [])
        #expect(keys(Array("\u{1B}[1;5A".utf8)) == [.up])
    }
}
