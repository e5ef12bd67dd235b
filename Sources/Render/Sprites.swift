import Game
/// The moving things in the terminal's coarse picture, painted as circles
/// at sub-cell positions; their sizes are the physics' own (the snapshot
/// carries them), so what is drawn is what collides.
enum Sprites {
    /// Paints a disc whose centre is at `position` (maze cells) and returns
    /// the pixels it may have touched. At least the pixel under the centre is
    /// painted, so nothing vanishes at scale 1.
    static func paintDisc(at position: Point, radius: Double, color: RGB,
                          layout: GameLayout, into canvas: Canvas) -> PixelRect {
        let s = Double(layout.scale)
        let cx = Double(layout.originX) + position.x * s
        let cy = Double(layout.originY) + position.y * s
        let r = radius * s
        if canvas.fillCircle(centerX: cx, centerY: cy, radius: r, color: color) == 0,
           cx.isFinite, cy.isFinite,
           cx >= 0, cy >= 0, cx < Double(canvas.width), cy < Double(canvas.height) {
            canvas[Int(cx), Int(cy)] = color
        }
        return PixelRect.around(centerX: cx, centerY: cy, radius: r)
    }

    /// The ball, with a highlight up and to the left once it is big enough
    /// for one to read as shine rather than noise.
    static func paintBall(at position: Point, radius ballRadius: Double, layout: GameLayout, into canvas: Canvas) -> PixelRect {
        let rect = paintDisc(at: position, radius: ballRadius, color: GamePalette.ball,
                             layout: layout, into: canvas)
        if layout.scale >= 6 {
            let shine = Point(position.x - ballRadius * 0.35, position.y - ballRadius * 0.35)
            _ = paintDisc(at: shine, radius: ballRadius * 0.3, color: GamePalette.ballHighlight,
                          layout: layout, into: canvas)
        }
        return rect
    }
}
