// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("256-colour mapping")
struct XtermPaletteTests {
    @Test(arguments: [
        (RGB(255, 0, 0), 196), (RGB(0, 255, 0), 46), (RGB(0, 0, 255), 21),
        (RGB(255, 255, 0), 226), (RGB(0, 255, 255), 51), (RGB(255, 0, 255), 201),
        (RGB(0, 0, 0), 16), (RGB(255, 255, 255), 231),
    ] as [(RGB, Int)])
    func pureColoursMapToTheirCubeCorners(color: RGB, index: Int) {
        #expect(XtermPalette.index(of: color) == UInt8(index))
    }

    @Test(arguments: [
        (RGB(8, 8, 8), 232), (RGB(128, 128, 128), 244), (RGB(238, 238, 238), 255), (RGB(50, 50, 50), 236),
    ] as [(RGB, Int)])
    func greysMapToTheGreyRamp(color: RGB, index: Int) {
        #expect(XtermPalette.index(of: color) == UInt8(index))
    }

    @Test func cubeGreysStayInTheCubeWhenExact() {
        #expect(XtermPalette.index(of: RGB(95, 95, 95)) == 59)
    }

    @Test func everyPaletteColourMapsBackToItself() {
        for i in 16 ... 255 {
            let color = XtermPalette.color(of: UInt8(i))
            #expect(XtermPalette.color(of: XtermPalette.index(of: color)) == color)
        }
    }
}
