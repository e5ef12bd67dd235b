// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import Game
import SystemCalls

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a random maze as a level file, to edit, share or play with --level.",
        discussion: """
            The maze is a perfect maze with some loops opened, the start top left,
            the exit the longest walk away, ghosts on straight corridors away
            from the start. The same seed and size give the same maze
            (`tiltmaze play --maze random:SEED --size WxH` plays it directly).
            """
    )

    @Option(parsing: .unconditional, help: "The seed (default: a new one, printed).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("The maze's size in cells, border included (7 to 201 each way).", valueName: "WxH"))
    var size: MazeSize = MazeSize(width: 41, height: 21)

    @Option(help: ArgumentHelp("Where to write it (default: standard output). An existing file is not replaced unless --force is given.", valueName: "file"))
    var out: String?

    @Flag(help: "Replace the --out file if it exists.")
    var force = false

    func run() throws {
        let seed = self.seed ?? UInt64.random(in: 0 ... 999_999)
        let level = try reportingFailure { try MazeGenerator.generate(seed: seed, width: size.width, height: size.height) }
        let text = LevelText.render(level, comment: "TiltMaze level: tiltmaze generate --seed \(seed) --size \(size.width)x\(size.height)")
        guard let out else {
            print(text, terminator: "")
            return
        }
        if !force, FileManager.default.fileExists(atPath: out) {
            throw ExitStatus.report("\(out) exists: choose another name, remove it first, or give --force to replace it", as: .cannotWrite)
        }
        let bytes = Array(text.utf8)
        // Not replacing: a file made meanwhile is kept too.
        if case .failure(let errno) = bytes.withUnsafeBytes({ AtomicFile.write($0, to: out, replacing: force) }) {
            throw ExitStatus.report("cannot write \(out): \(errno)", as: .cannotWrite)
        }
        printError("wrote \(out): \(level.title)")
    }
}

/// `--size WxH` for mazes, in cells.
struct MazeSize: ExpressibleByArgument {
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// `--maze random[:SEED]`.
struct MazeRequest: ExpressibleByArgument {
    let seed: UInt64?

    init?(argument: String) {
        if argument == "random" {
            seed = nil
        } else if argument.hasPrefix("random:"), let s = UInt64(argument.dropFirst(7)) {
            seed = s
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["random", "random:SEED"] }
}
