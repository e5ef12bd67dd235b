// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Testing
import Game
import MotionCore
@testable import Render

/// The one compositor, driven with each back end's art: whatever it paints,
/// the rectangles it reports must cover every pixel that changed, or a back
/// end copying only those would show a stale picture.
@Suite("Maze compositor, for every back end")
struct MazeCompositorTests {
    /// Pellets in a row, a ghost patrolling across them, and an exit.
    let level = try! LevelParser(file: "compositor").parse("""
        title: Compositor
        ghost: 2,2 -> 12,2 speed 3
        maze:
        ###############
        #S o o o o o E#
        #             #
        ###############
        """)

    /// A game played towards the exit with the tilt swinging (the stars
    /// move), eating the pellets, a catch flash in the middle, then a
    /// restart that brings the pellets back.
    func frames() -> [WorldSnapshot] {
        var world = World(level: level, dt: 1.0 / 60)
        var out: [WorldSnapshot] = []
        for i in 0 ..< 150 {
            if i == 120 { world.restart() }
            let swing = sin(Double(i) * 0.2) * 3
            let gravity = Vector3(2.5, swing, -9)
            world.step(gravity: gravity)
            var s = WorldSnapshot()
            world.snapshot(into: &s)
            s.gravity = gravity  // what the star layer follows (the physics loop sets it)
            if (50 ..< 54).contains(i) { s.caughtFlash = 3 }
            out.append(s)
        }
        return out
    }

    func checkDamage<Art: MazeArt>(_ compositor: MazeCompositor<Art>) {
        let shown = Canvas(width: compositor.picture.width, height: compositor.picture.height)
        var eaten = false, partial = 0, starsMoved = false
        var lastOffset: (x: Int, y: Int)?
        for (i, snapshot) in frames().enumerated() {
            let full = compositor.compose(snapshot, player: .pacman)
            let rects = Array(compositor.finishFrame())
            if !full { partial += 1 }
            if snapshot.pellets.count < level.pellets.count { eaten = true }
            let offset = ParallaxLayer.offset(snapshot.gravity, reach: compositor.art.parallaxReach)
            if let lastOffset, lastOffset != offset { starsMoved = true }
            lastOffset = offset
            for r in rects { shown.copyRect(from: compositor.picture, x: r.x, y: r.y, width: r.width, height: r.height) }
            var stale = 0
            for y in 0 ..< shown.height { for x in 0 ..< shown.width where shown[x, y] != compositor.picture[x, y] { stale += 1 } }
            #expect(stale == 0, "frame \(i): \(stale) changed pixels outside the rectangles reported")
        }
        #expect(eaten, "the game never ate a pellet: the test does not cover pellets")
        #expect(starsMoved, "the star layer never moved: the test does not cover it")
        #expect(partial > 100, "most frames should copy only their rectangles (\(partial) did)")
    }

    @Test("the terminal's art: the rectangles cover every change")
    func terminal() {
        let layout = GameLayout(levelWidth: level.width, levelHeight: level.height, columns: 80, rows: 24)
        checkDamage(MazeCompositor(level: level, art: TerminalArt(layout: layout), width: layout.pixelWidth,
                                   height: layout.pixelHeight,
                                   parallaxArea: PixelRect(x: 0, y: 0, width: layout.pixelWidth, height: layout.pixelHeight)))
    }

    @Test("a screen's art (framebuffer, KMS): the rectangles cover every change, eaten pellets painted out cell by cell")
    func screen() throws {
        let layout = try #require(PixelLayout(levelWidth: level.width, levelHeight: level.height, width: 480, height: 320))
        let art = ScreenArt(layout: layout, hint: BitmapFont.bytes("hints"), hintColor: GamePalette.footerText)
        checkDamage(MazeCompositor(level: level, art: art, width: 480, height: 320,
                                   parallaxArea: PixelRect(x: 0, y: layout.barHeight, width: 480,
                                                           height: 320 - 2 * layout.barHeight)))
    }
}
