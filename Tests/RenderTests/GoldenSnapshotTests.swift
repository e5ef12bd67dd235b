// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Fbdev
import Testing
import Foundation
import Game
import PNG
@testable import Displays
@testable import Render

/// The framebuffer renderer's opening frame of the bundled level in every
/// pixel format a user meets, compared pixel for pixel with pictures kept in
/// Tests/RenderTests/Golden. When the look changes on purpose, regenerate
/// them with `make golden` (TILTMAZE_UPDATE_GOLDEN=1) and look at them.
@Suite("Golden framebuffer pictures")
struct GoldenSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    static let updating = ProcessInfo.processInfo.environment["TILTMAZE_UPDATE_GOLDEN"] == "1"

    @Test("the opening frame matches its golden picture", arguments: [
        ("rgb565", 800, 480, 0), ("bgr565", 800, 480, 0), ("xrgb8888", 640, 400, 0), ("xbgr8888", 640, 400, 0),
        ("argb8888", 640, 400, 0), ("rgb888", 640, 400, 0), ("rgb565", 800, 480, 1664),
    ])
    func golden(_ format: String, _ width: Int, _ height: Int, _ lineLength: Int) throws {
        let name = "first-roll-\(width)x\(height)-\(format)\(lineLength > 0 ? "-stride\(lineLength)" : "").png"
        let surface = try Snapshot.openingFrame(of: BundledLevels.defaultLevel(), width: width, height: height,
                                                format: PixelFormat.named[format]!, lineLength: lineLength > 0 ? lineLength : nil)
        let actual = Snapshot.image(of: surface)
        let path = "\(Self.directory)/\(name)"
        if Self.updating {
            try actual.write(to: path)
            return
        }
        let expected = try PNGImage(contentsOf: path)
        #expect(expected.width == width && expected.height == height)
        if actual != expected {
            let saved = "/tmp/tiltmaze-actual-\(name)"
            try? actual.write(to: saved)
            var differing = 0
            for i in stride(from: 0, to: min(actual.pixels.count, expected.pixels.count), by: 3)
                where actual.pixels[i ..< i + 3] != expected.pixels[i ..< i + 3] { differing += 1 }
            Issue.record("\(differing) pixels differ from \(path); this run's picture is \(saved)")
        }
    }

    @Test("the Sense HAT's 8×8 view of the opening frame matches its golden picture")
    func senseHatGolden() throws {
        let level = BundledLevels.defaultLevel()
        var snapshot = WorldSnapshot()
        World(level: level, dt: 1.0 / 240).snapshot(into: &snapshot)
        let canvas = Canvas(width: 8, height: 8)
        SenseHatView.paint(snapshot, level: level, into: canvas)
        // The matrix as rpisense-fb lays it out: RGB565, 16 bytes a row.
        let surface = PixelSurface(width: 8, height: 8, format: .rgb565, lineLength: 16)
        surface.copyAll(from: canvas)
        let actual = Snapshot.image(of: surface)
        let path = "\(Self.directory)/first-roll-sensehat-8x8-rgb565.png"
        if Self.updating {
            try actual.write(to: path)
            return
        }
        #expect(try PNGImage(contentsOf: path) == actual, "the 8×8 view differs from \(path)")
    }
}
