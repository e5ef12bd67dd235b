// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Render

@Suite("Colour mode detection")
struct ColorModeTests {
    @Test(arguments: ["truecolor", "24bit", "TrueColor"])
    func colortermSayingTruecolourSelectsTruecolour(value: String) {
        #expect(ColorMode.detect(environment: ["COLORTERM": value]) == .truecolor)
    }

    @Test func anythingElseSelectsThe256ColourPalette() {
        #expect(ColorMode.detect(environment: [:]) == .palette256)
        #expect(ColorMode.detect(environment: ["COLORTERM": "yes"]) == .palette256)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
    }
}
