// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Foundation
import PNG

@Suite("tiltmaze snapshot")
struct SnapshotCommandTests {
    let directory = NSTemporaryDirectory() + "tiltmaze-snapshot-\(getpid())"

    init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    @Test("draws the bundled level's opening frame at the size asked for, as a PNG")
    func drawsPNG() throws {
        let out = directory + "/first.png"
        let r = try ProgramRunner.run(["snapshot", "--size", "320x200", "--format", "bgr565", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGImage(contentsOf: out)
        #expect(image.width == 320 && image.height == 200)
    }

    @Test("a screen too small for the maze: one line naming the size and the need, exit 64, no file")
    func tooSmall() throws {
        let out = directory + "/small.png"
        let r = try ProgramRunner.run(["snapshot", "--size", "10x10", "--out", out])
        #expect(r.status == 64)
        #expect(r.stderr.contains("10×10 is too small for this maze (it needs at least"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a format or size that is not one of the forms is refused with the accepted ones")
    func badArguments() throws {
        let format = try ProgramRunner.run(["snapshot", "--format", "rgb332", "--out", directory + "/x.png"])
        #expect(format.status == 64)
        #expect(format.stderr.contains("--format must be one of argb8888, bgr565, rgb565, rgb888, xbgr8888, xrgb8888"))
        let size = try ProgramRunner.run(["snapshot", "--size", "big", "--out", directory + "/x.png"])
        #expect(size.status == 64)
        #expect(size.stderr.contains("--size must be WIDTHxHEIGHT"))
        let huge = try ProgramRunner.run(["snapshot", "--size", "100000x100000", "--out", directory + "/x.png"])
        #expect(huge.status == 64)
        #expect(huge.stderr.contains("--size: each side is 1 to 8192 pixels (got 100000x100000)"), "\(huge.stderr)")
    }

    @Test("an --out that exists is refused (73) and keeps its bytes; --force replaces it")
    func existingFile() throws {
        let out = directory + "/mine-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { unlink(out) }
        let mine = Data("a picture the user made".utf8)
        try mine.write(to: URL(fileURLWithPath: out))
        let refused = try ProgramRunner.run(["snapshot", "--size", "320x200", "--out", out])
        #expect(refused.status == 73)
        #expect(refused.stderr == "tiltmaze: \(out) exists: choose another name, remove it first, or give --force to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == mine)
        let forced = try ProgramRunner.run(["snapshot", "--size", "320x200", "--out", out, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try PNGImage(contentsOf: out).width == 320)
    }

    @Test("a directory that does not exist: the error names the file, exit 73, and nothing is left behind")
    func unwritable() throws {
        let out = "/nonexistent-\(getpid())/x.png"
        let r = try ProgramRunner.run(["snapshot", "--out", out])
        #expect(r.status == 73)
        #expect(r.stderr.contains("\(out): cannot write the PNG"), "\(r.stderr)")
    }

    @Test("play --display fb on a node that is not a framebuffer: one line naming it and what it is, exit 69")
    func notAFramebuffer() throws {
        let r = try ProgramRunner.run(["play", "--source", "sim", "--display", "fb:/dev/null"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("/dev/null: cannot read its layout (FBIOGET_VSCREENINFO)"), "\(r.stderr)")
        #expect(r.stderr.contains("it is not a framebuffer"))
    }
}
