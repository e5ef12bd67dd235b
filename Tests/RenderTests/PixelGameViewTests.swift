// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import PNG
import Controls
import Game
import MotionCore
@testable import Displays
@testable import Render
import Fbdev

@Suite("Framebuffer screen: composition and damage")
struct PixelGameViewTests {
    /// Snapshots of a game going on: the ball rolling, ghosts patrolling, the
    /// clock running, a catch, the pause menu opened and closed.
    func frames() -> [(WorldSnapshot, MenuState?)] {
        var world = World(level: Fixtures.level, dt: 1.0 / 60)
        var out: [(WorldSnapshot, MenuState?)] = []
        for i in 0 ..< 90 {
            world.step(gravity: i < 60 ? Vector3(5, -1, -8) : Vector3(-2, 6, -7))
            var s = WorldSnapshot()
            world.snapshot(into: &s)
            if i == 40 { s.caughtFlash = 5 }
            let menu: MenuState? = (70 ..< 75).contains(i) ? MenuState(.paused, selected: i - 70 > 2 ? 1 : 0) : nil
            out.append((s, menu))
        }
        return out
    }

    @Test("frame after frame, copying only the changed rectangles leaves the screen as a full repaint would")
    func damageIsComplete() throws {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "test", width: 400, height: 260)
        let surface = PixelSurface(width: 400, height: 260, format: .xrgb8888)
        let sequence = frames()
        for (i, (snapshot, menu)) in sequence.enumerated() {
            for rect in screen.compose(snapshot, menu: menu) { surface.copy(rect, from: screen.picture) }
            // Every frame, not just the last: a later full repaint would hide a missed rectangle.
            var stale = 0
            for y in 0 ..< 260 { for x in 0 ..< 400 where surface.pixel(x: x, y: y) != screen.picture[x, y] { stale += 1 } }
            #expect(stale == 0, "frame \(i): \(stale) pixels not copied")
        }
        let fresh = try PixelGameView(level: Fixtures.level, sensorName: "test", width: 400, height: 260)
        let expected = PixelSurface(width: 400, height: 260, format: .xrgb8888)
        for rect in fresh.compose(sequence.last!.0, menu: sequence.last!.1) { expected.copy(rect, from: fresh.picture) }
        var differing = 0
        for y in 0 ..< 260 { for x in 0 ..< 400 where surface.rawPixel(x: x, y: y) != expected.rawPixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
    }

    @Test("while a menu is open the hint bar names the menu's keys, and the game's once it closes; as a fresh screen would draw it",
          arguments: [(400, 260), (200, 120)])
    func menuHints(width: Int, height: Int) throws {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "test", width: width, height: height)
        let surface = PixelSurface(width: width, height: height, format: .xrgb8888)
        let bar = screen.layout.hintBar
        func barPixels(_ surface: PixelSurface) -> [UInt32] {
            var pixels: [UInt32] = []
            for y in bar.y ..< bar.y + bar.height { for x in bar.x ..< bar.x + bar.width { pixels.append(surface.rawPixel(x: x, y: y)) } }
            return pixels
        }
        var world = World(level: Fixtures.level, dt: 1.0 / 60)
        var bars: [[UInt32]] = []
        let menus: [MenuState?] = [nil, nil, MenuState(.paused), MenuState(.paused, selected: 1), MenuState(.paused, selected: 1), nil, nil]
        for (i, menu) in menus.enumerated() {
            world.step(gravity: Vector3(3, 1, -8))
            var s = WorldSnapshot()
            world.snapshot(into: &s)
            for rect in screen.compose(s, menu: menu) { surface.copy(rect, from: screen.picture) }
            // What a screen made now, in one full repaint, shows.
            let fresh = try PixelGameView(level: Fixtures.level, sensorName: "test", width: width, height: height)
            let expected = PixelSurface(width: width, height: height, format: .xrgb8888)
            for rect in fresh.compose(s, menu: menu) { expected.copy(rect, from: fresh.picture) }
            #expect(barPixels(surface) == barPixels(expected), "frame \(i) (\(width)×\(height)): the hint bar differs from a fresh screen's")
            bars.append(barPixels(surface))
            if i == 3, let path = ProcessInfo.processInfo.environment["TILTMAZE_TEST_PICTURE"] {
                try PNGImage(width: width, height: height, pixels: surface.rgbBytes()).write(to: "\(path)-\(width)x\(height).png")
            }
        }
        #expect(bars[2] != bars[0], "the menu's hints are not the game's")
        #expect(bars[5] == bars[0] && bars[6] == bars[0], "the game's hints are back once the menu closed")
        // Closed on a full repaint (a console switch back forces one): the game's hints again.
        _ = screen.compose(WorldSnapshot(), menu: MenuState(.paused))
        screen.forceFullRepaint()
        for rect in screen.compose(WorldSnapshot(), menu: nil) { surface.copy(rect, from: screen.picture) }
        #expect(barPixels(surface) == bars[0], "the menu's hints stayed after a full repaint closed it")
    }

    @Test("a ball rolling across the maze costs a small part of a full frame's bytes")
    func smallDamage() throws {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "test", width: 800, height: 480)
        let surface = PixelSurface(width: 800, height: 480, format: .rgb565)
        var world = World(level: Fixtures.level, dt: 1.0 / 60)
        var full = 0, later = 0
        for i in 0 ..< 30 {
            world.step(gravity: Vector3(5, 0, -8))
            var s = WorldSnapshot()
            world.snapshot(into: &s)
            var bytes = 0
            for rect in screen.compose(s) { bytes += surface.copy(rect, from: screen.picture) }
            if i == 0 { full = bytes } else { later += bytes }
        }
        #expect(full == 800 * 480 * 2)
        #expect(later / 29 < full / 10, "on average \(later / 29) bytes a frame after the first")
    }

    @Test("when only the clock's tenths change, only their characters are copied, not the whole status bar")
    func clockCopiesItsDigits() throws {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "test", width: 800, height: 480)
        var s = WorldSnapshot()
        s.elapsed = 1.2
        _ = screen.compose(s)
        s.elapsed = 1.3
        let bar = screen.layout.statusBar
        // The sprites are copied again where they stand; the bar's rectangle is the one that touches it.
        let rects = screen.compose(s).filter { $0.y < bar.y + bar.height }
        #expect(rects.count == 1)
        let changed = try #require(rects.first)
        #expect(changed.y == bar.y && changed.height == bar.height)
        #expect(changed.width > 0 && changed.width <= BitmapFont.width(of: 2, scale: screen.layout.textScale),
                "\(changed.width) px of a \(bar.width) px bar")
    }

    @Test("with --stats the frame figures run across the hint bar whole, and KMS's flip figures take the sensor's place")
    func statisticsLayout() throws {
        let (width, height) = (1280, 800)
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "test", width: width, height: height,
                                           showStatistics: true)
        _ = screen.compose(WorldSnapshot())
        let figures = Array("tick 62/140us  frame 16.7ms cost 0.21ms  age 3.1/5.0ms  dropped 0  sent 5075B/3".utf8)
        let flips = Array("  flips 1200/0 flip 8.1/16.4ms age@flip 12.0/20.1ms".utf8)
        figures.withUnsafeBufferPointer { f in flips.withUnsafeBufferPointer { screen.setStatistics(f, output: $0) } }
        let rects = Array(screen.compose(WorldSnapshot()))
        let layout = screen.layout, scale = layout.textScale
        #expect(rects.contains(layout.hintBar), "the hint bar is copied when the figures change")
        func coloured(_ color: RGB, in bar: PixelRect, from x0: Int, to x1: Int) -> Int {
            var n = 0
            for y in bar.y ..< bar.y + bar.height { for x in x0 ..< x1 where screen.picture[x, y] == color { n += 1 } }
            return n
        }
        // The figures' last character is drawn (nothing cut): ink in its cell.
        let lastCell = layout.textInset + BitmapFont.width(of: figures.count - 1, scale: scale)
        #expect(coloured(GamePalette.sensorText, in: layout.hintBar, from: lastCell,
                         to: lastCell + BitmapFont.width(of: 1, scale: scale)) > 0)
        // The flip figures end at the status bar's right inset, whole: their first character is inked too.
        let end = layout.width - layout.textInset
        let firstFlip = end - BitmapFont.width(of: flips.count - 2, scale: scale)
        #expect(coloured(GamePalette.statusText, in: layout.statusBar, from: firstFlip,
                         to: firstFlip + BitmapFont.width(of: 1, scale: scale)) > 0, "'f' of flips")
        #expect(coloured(GamePalette.sensorText, in: layout.statusBar, from: width / 2, to: width) == 0,
                "the sensor's name gave its place to the flip figures")
        if let path = ProcessInfo.processInfo.environment["TILTMAZE_TEST_PICTURE"] {
            let surface = PixelSurface(width: width, height: height, format: .xrgb8888)
            _ = surface.copyAll(from: screen.picture)
            try PNGImage(width: width, height: height, pixels: surface.rgbBytes()).write(to: path)
        }
    }

    /// The status bar's pixels of the opening frame with the sensor called `name`.
    func statusBar(sensorName name: String) throws -> (pixels: [RGB], sensorColoured: Int) {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: name, width: 400, height: 260)
        let surface = PixelSurface(width: 400, height: 260, format: .xrgb8888)
        for rect in screen.compose(WorldSnapshot()) { surface.copy(rect, from: screen.picture) }
        let bar = screen.layout.statusBar
        var pixels: [RGB] = []
        for y in bar.y ..< bar.y + bar.height { for x in bar.x ..< bar.x + bar.width { pixels.append(surface.pixel(x: x, y: y)) } }
        return (pixels, pixels.filter { $0 == GamePalette.sensorText }.count)
    }

    @Test("a sensor name too long for the status bar is shown cut, ending in ..., not left out")
    func longSensorName() throws {
        let long = try statusBar(sensorName: String(repeating: "x", count: 200))
        #expect(long.sensorColoured > 0, "the name is drawn")
        // Drawn exactly as a name that just fits and ends in "..." would be.
        let same = try (0 ..< 60).contains { try statusBar(sensorName: String(repeating: "x", count: $0) + "...").pixels == long.pixels }
        #expect(same)
        #expect(BitmapFont.bytes("a \u{B7} b\u{2026} 3\u{D7}4 \u{263A}") == Array("a - b... 3x4 ?".utf8))
    }

    @Test("a screen too small for the maze is refused, naming the node, its size and what is needed")
    func tooSmall() {
        #expect {
            _ = try PixelGameView(level: Fixtures.level, sensorName: "test", width: 15, height: 30, path: "/dev/fb1")
        } throws: { error in
            "\(error)".hasPrefix("/dev/fb1: 15×30 is too small for this maze (it needs at least 20×")
        }
    }
}
