// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// The moving things in the terminal's coarse picture, painted as circles
/// at sub-cell positions; their sizes are the physics' own (the snapshot
/// carries them), so what is drawn is what collides.
enum Sprites {
    /// A disc in pixels, at least the pixel under its centre; the rectangle it may have touched.
    static func disc(centerX cx: Double, centerY cy: Double, radius r: Double, color: RGB, into canvas: Canvas) -> PixelRect {
        if canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: color) == 0,
           cx.isFinite, cy.isFinite,
           cx >= 0, cy >= 0, cx < Double(canvas.width), cy < Double(canvas.height) {
            canvas[Int(cx), Int(cy)] = color
        }
        return PixelRect.around(centerX: cx, centerY: cy, radius: r)
    }

    /// Whether the player is hidden this frame: it blinks, four times a
    /// second, through the grace after a ghost touch.
    static func blinkedOut(_ snapshot: WorldSnapshot) -> Bool {
        snapshot.grace > 0 && Int(snapshot.elapsed * 8) % 2 == 1
    }
}
