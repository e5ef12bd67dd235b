import Game
/// The moving things, painted as circles at sub-cell positions on the canvas.
enum Sprites {
    /// Ball radius in maze cells.
    static let ballRadius = 0.3
    /// Ghost radius in maze cells: a little larger than the ball, so a catch
    /// looks like one.
    static let ghostRadius = 0.35

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
    static func paintBall(at position: Point, layout: GameLayout, into canvas: Canvas) -> PixelRect {
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
