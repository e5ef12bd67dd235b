// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import Fbdev
import Game
import Displays
import Render
import FoundationEssentials
import PNG

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Draw a level's opening frame with the framebuffer renderer into a PNG (no device needed).",
        discussion: """
            The picture is what a framebuffer of that size and pixel format would
            show: --format rgb565 (a Pi's default console), bgr565, xrgb8888,
            xbgr8888, argb8888 or rgb888.
            """
    )

    @Option(help: ArgumentHelp("The level to draw (the bundled one when left out).", valueName: "file"))
    var level: String?

    @Option(help: ArgumentHelp("Screen size in pixels.", valueName: "WxH"))
    var size: String = "800x480"

    @Option(help: "Pixel format of the framebuffer drawn into.")
    var format: String = "rgb565"

    @Option(help: ArgumentHelp("Where to write the PNG. An existing file is not replaced unless --force is given.", valueName: "file.png"))
    var out: String

    @Flag(help: "Replace the --out file if it exists.")
    var force = false

    func validate() throws {
        guard let asked = Self.dimensions(size) else { throw ValidationError("--size must be WIDTHxHEIGHT in pixels, e.g. 800x480 (got \(size))") }
        guard Self.sides.contains(asked.width), Self.sides.contains(asked.height) else {
            throw ValidationError("--size: each side is \(Self.sides.lowerBound) to \(Self.sides.upperBound) pixels (got \(size))")
        }
        guard PixelFormat.named[format.lowercased()] != nil else {
            throw ValidationError("--format must be one of \(PixelFormat.named.keys.sorted().joined(separator: ", ")) (got \(format))")
        }
    }

    /// The sides a picture may have, in pixels: a screen's, with room to spare (8192 is 8K's width).
    static let sides = 1 ... 8192

    /// `text` read as WIDTHxHEIGHT, whatever the numbers.
    static func dimensions(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        return (w, h)
    }

    var parsedSize: (width: Int, height: Int)? {
        guard let asked = Self.dimensions(size), Self.sides.contains(asked.width), Self.sides.contains(asked.height) else { return nil }
        return asked
    }

    func run() throws {
        if !force, FileManager.default.fileExists(atPath: out) {
            throw ExitStatus.report("\(out) exists: choose another name, remove it first, or give --force to replace it", as: .cannotWrite)
        }
        let level = try loadLevel(self.level)
        let (width, height) = parsedSize!
        let surface: PixelSurface
        do {
            surface = try Snapshot.openingFrame(of: level, width: width, height: height,
                                                format: PixelFormat.named[format.lowercased()]!)
        } catch {
            // The only screen here is the one --size asked for: too small is a wrong option.
            throw ExitStatus.report("\(error)", as: .usage)
        }
        do {
            // Not replacing: a file made meanwhile is kept too.
            try Snapshot.image(of: surface).write(to: out, replacing: force)
        } catch {
            throw ExitStatus.report("\(error)", as: .cannotWrite)
        }
    }
}
