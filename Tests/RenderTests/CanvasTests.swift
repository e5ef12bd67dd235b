// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Render

@Suite("Canvas")
struct CanvasTests {
    let white = RGB(255, 255, 255)

    @Test func fillRectIsClippedToTheCanvas() {
        let canvas = Canvas(width: 4, height: 3)
        canvas.fillRect(x: -2, y: 2, width: 4, height: 5, color: white)
        #expect(canvas[0, 2] == white)
        #expect(canvas[1, 2] == white)
        #expect(canvas[2, 2] == RGB(0, 0, 0))
        #expect(canvas[0, 1] == RGB(0, 0, 0))
    }

    @Test func fillCirclePaintsExactlyThePixelsWhoseCentresAreInside() {
        let canvas = Canvas(width: 5, height: 5)
        // Radius 1 around the centre of pixel (2, 2): the pixel and its 4 neighbours.
        let painted = canvas.fillCircle(centerX: 2.5, centerY: 2.5, radius: 1, color: white)
        #expect(painted == 5)
        #expect(canvas[2, 1] == white && canvas[1, 2] == white && canvas[3, 2] == white && canvas[2, 3] == white)
        #expect(canvas[1, 1] == RGB(0, 0, 0))
    }

    @Test func fillCircleIsClippedAndSurvivesWildPositions() {
        let canvas = Canvas(width: 3, height: 3)
        #expect(canvas.fillCircle(centerX: 0, centerY: 0, radius: 1.2, color: white) == 1)
        #expect(canvas.fillCircle(centerX: 1e300, centerY: -1e300, radius: 2, color: white) == 0)
        #expect(canvas.fillCircle(centerX: .nan, centerY: 1, radius: 2, color: white) == 0)
    }

    @Test func resizeKeepsNoOldContent() {
        let canvas = Canvas(width: 2, height: 2)
        canvas.fill(white)
        canvas.resize(width: 3, height: 1)
        #expect(canvas.width == 3 && canvas.height == 1)
        #expect(canvas[2, 0] == RGB(0, 0, 0))
    }
}
