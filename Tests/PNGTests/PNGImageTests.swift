// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import PNG
import LibC

@Suite("PNG files")
struct PNGImageTests {
    func temporaryPath(_ name: String) -> String { "/tmp/tiltmaze-png-\(getpid())-\(name)" }

    @Test("an image written and read back is the same, pixel for pixel")
    func roundTrip() throws {
        var pixels: [UInt8] = []
        for y in 0 ..< 7 { for x in 0 ..< 5 { pixels += [UInt8(x * 50), UInt8(y * 36), UInt8((x * y) & 0xFF)] } }
        let image = PNGImage(width: 5, height: 7, pixels: pixels)
        let path = temporaryPath("round.png")
        defer { unlink(path) }
        try image.write(to: path)
        #expect(try PNGImage(contentsOf: path) == image)
        #expect(image[4, 6] == (200, 216, 24))
    }

    @Test("the encoded bytes start with the PNG signature")
    func signature() throws {
        let bytes = try PNGImage(width: 1, height: 1, pixels: [1, 2, 3]).encoded()
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("a file that is not a PNG is refused, naming the file")
    func notAPNG() throws {
        let path = temporaryPath("not.png")
        defer { unlink(path) }
        // trixie's glibc (2.41) marks fputs's stream non-null: unwrap, as a Pi's build must.
        let f = try #require(fopen(path, "w"))
        fputs("hello", f)
        fclose(f)
        #expect { _ = try PNGImage(contentsOf: path) } throws: { error in
            (error as? PNGError)?.description.hasPrefix("\(path): cannot read the PNG") == true
        }
    }

    @Test("writing into a directory that does not exist fails, naming it, and leaves nothing behind")
    func unwritable() throws {
        let path = "/nonexistent-dir-\(getpid())/x.png"
        #expect { try PNGImage(width: 1, height: 1, pixels: [0, 0, 0]).write(to: path) } throws: { error in
            (error as? PNGError)?.description.hasPrefix("\(path): cannot write the PNG") == true
        }
    }
}
