// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Fbdev
import Testing
import Game
import MotionCore
import LibC
@testable import Displays
@testable import Render

@Suite("Sense HAT LED matrix view")
struct SenseHatViewTests {
    func view(_ snapshot: WorldSnapshot, _ level: Level = Fixtures.level) -> Canvas {
        let canvas = Canvas(width: 8, height: 8)
        SenseHatView.paint(snapshot, level: level, into: canvas)
        return canvas
    }

    @Test("the window follows the ball and stays inside a maze at least 8 cells across")
    func window() {
        let level = Fixtures.level   // 20 × 10
        #expect(SenseHatView.origin(ball: Point(1.5, 1.5), level: level) == (0, 0))
        #expect(SenseHatView.origin(ball: Point(10.5, 5.5), level: level) == (7, 2))
        #expect(SenseHatView.origin(ball: Point(18.5, 8.5), level: level) == (12, 2))
    }

    @Test("one LED per cell: walls dim, floor dark, exit green, ghosts red, the ball bright")
    func colours() {
        var s = Fixtures.snapshot(ball: Point(17.5, 1.5))
        s.ghostCount = 1
        s.ghosts[0] = Point(15.5, 2.5)
        let canvas = view(s)
        // Window origin (12, 0): the ball's cell (17,1) is LED (5,1), the exit (18,1) LED (6,1).
        #expect(canvas[5, 1] == SenseHatView.ball)
        #expect(canvas[6, 1] == SenseHatView.exit)
        #expect(canvas[3, 2] == SenseHatView.ghost)
        #expect(canvas[7, 0] == SenseHatView.wall)
        #expect(canvas[1, 1] == SenseHatView.floor)
    }

    @Test("no LED is brighter than about half, so the matrix can be looked at")
    func brightness() {
        for colour in [SenseHatView.wall, SenseHatView.exit, SenseHatView.ghost, SenseHatView.ball] {
            #expect(max(colour.r, colour.g, colour.b) <= 128)
        }
    }
}

@Suite("Choosing displays")
struct DisplaySelectionTests {
    @Test("the forms --display takes", arguments: [
        ("auto", DisplaySelection(screen: .auto)), ("terminal", DisplaySelection(screen: .terminal)),
        ("fb", DisplaySelection(screen: .framebuffer(nil))), ("fb:/dev/fb1", DisplaySelection(screen: .framebuffer("/dev/fb1"))),
        ("fb:fb2", DisplaySelection(screen: .framebuffer("/dev/fb2"))),
        ("sensehat", DisplaySelection(screen: nil, senseHat: .some(nil))),
        ("sensehat:/dev/fb1", DisplaySelection(screen: nil, senseHat: .some("/dev/fb1"))),
        ("fb,sensehat", DisplaySelection(screen: .framebuffer(nil), senseHat: .some(nil))),
        ("sensehat,terminal", DisplaySelection(screen: .terminal, senseHat: .some(nil))),
    ])
    func parses(_ text: String, _ expected: DisplaySelection) {
        #expect(DisplaySelection(argument: text) == expected)
    }

    @Test("two screens, two matrices, an empty part or an unknown word are refused",
          arguments: ["fb,terminal", "sensehat,sensehat", "fb,", "", "hdmi", "sensehat:", "fb:"])
    func refuses(_ text: String) {
        #expect(DisplaySelection(argument: text) == nil)
    }

    @Test("auto draws in the terminal when standard input is not a virtual console, and says so")
    func autoOffConsole() {
        let fb = FramebufferInfo(id: "fb0", name: "bochs-drmdrmfb", width: 1280, height: 800, bitsPerPixel: 32, stride: 5120)
        // A pipe's read end is certainly not a console.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let choice = DisplayRequest.auto.choose(input: fds[0], framebuffers: [fb])
        #expect(choice == .terminal(reason: "not a console"))
        #expect(choice.label == " · terminal (not a console)")
    }

    @Test("fb without a node takes the first framebuffer that is not the Sense HAT's matrix")
    func firstScreen() {
        let matrix = FramebufferInfo(id: "fb0", name: "RPi-Sense FB", width: 8, height: 8, bitsPerPixel: 16, stride: 16)
        let hdmi = FramebufferInfo(id: "fb1", name: "vc4drmfb", width: 1920, height: 1080, bitsPerPixel: 16, stride: 3840)
        #expect(DisplayRequest.framebuffer(nil).choose(framebuffers: [matrix, hdmi]) == .framebuffer(path: "/dev/fb1", reason: nil))
        #expect(DisplaySelection(argument: "sensehat")!.senseHatPath(framebuffers: [matrix, hdmi]) == "/dev/fb0")
        #expect(DisplaySelection(argument: "sensehat")!.senseHatPath(framebuffers: [hdmi]) == nil)
    }
}
