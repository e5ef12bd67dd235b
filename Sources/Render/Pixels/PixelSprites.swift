// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// The moving things at framebuffer resolution: a shaded ball lit from the
/// top left, and ghosts with the classic silhouette (a dome, a body, a
/// skirt of three points) whose eyes look where they go. Sizes are the
/// physics' radii (from the snapshot), scaled by the cell size.
enum PixelSprites {
    /// Paints the ball centred at `center` (pixels) with radius `radius`
    /// (pixels); returns the rectangle it may have touched. The rim is
    /// blended with what is under it by how much of each pixel it covers.
    static func paintBall(center: (x: Double, y: Double), radius: Double, into canvas: Canvas) -> PixelRect {
        let rect = PixelRect.around(centerX: center.x, centerY: center.y, radius: radius)
        let (x0, y0, x1, y1) = clip(rect, canvas)
        guard x0 < x1, y0 < y1, radius > 0 else { return rect }
        // Light from the top left and towards the viewer; a half-way vector for the highlight.
        let light = (x: -0.45, y: -0.55, z: 0.70)
        let half = normalize((light.x, light.y, light.z + 1))
        let base = GamePalette.ball
        for y in y0 ..< y1 {
            let dy = Double(y) + 0.5 - center.y
            for x in x0 ..< x1 {
                let dx = Double(x) + 0.5 - center.x
                let distance = (dx * dx + dy * dy).squareRoot()
                let coverage = min(max(radius + 0.5 - distance, 0), 1)
                guard coverage > 0 else { continue }
                let nx = dx / radius, ny = dy / radius
                let nz = max(0, 1 - nx * nx - ny * ny).squareRoot()
                let diffuse = max(0, nx * light.x + ny * light.y + nz * light.z)
                let h = max(0, nx * half.x + ny * half.y + nz * half.z)
                let specular = pow16(h) * 0.7
                let shade = 0.22 + 0.78 * diffuse
                let lit = RGB(channel(Double(base.r) * shade + 255 * specular),
                              channel(Double(base.g) * shade + 255 * specular),
                              channel(Double(base.b) * shade + 255 * specular))
                canvas[x, y] = coverage >= 1 ? lit : canvas[x, y].blended(towards: lit, fraction: coverage)
            }
        }
        return rect
    }

    /// Paints a ghost centred at `center` with half-width `radius` (pixels),
    /// looking along `heading` (a unit vector, or zero); returns its rectangle.
    static func paintGhost(center: (x: Double, y: Double), radius r: Double, heading: Point, color: RGB,
                           into canvas: Canvas) -> PixelRect {
        let rect = PixelRect.around(centerX: center.x, centerY: center.y, radius: r)
        let (x0, y0, x1, y1) = clip(rect, canvas)
        guard x0 < x1, y0 < y1, r > 0 else { return rect }
        let top = center.y - r, bottom = center.y + r
        let domeY = top + r, skirt = 0.35 * r, teeth = 3.0
        for y in y0 ..< y1 {
            let py = Double(y) + 0.5
            for x in x0 ..< x1 {
                let px = Double(x) + 0.5
                let dx = px - center.x
                guard abs(dx) <= r else { continue }
                let inside: Bool
                if py < domeY {
                    let dy = py - domeY
                    inside = dx * dx + dy * dy <= r * r
                } else if py < bottom - skirt {
                    inside = true
                } else {
                    // Points hanging down: each tooth deepest at its middle.
                    let u = ((dx + r) / (2 * r) * teeth).truncatingRemainder(dividingBy: 1)
                    inside = py - (bottom - skirt) <= skirt * (1 - abs(2 * u - 1)) && py <= bottom
                }
                if inside { canvas[x, y] = color }
            }
        }
        // Eyes: white, their pupils turned the way the ghost goes.
        let eyeY = center.y - 0.2 * r
        for side in [-1.0, 1.0] {
            let eyeX = center.x + side * 0.38 * r
            fillEllipse(centerX: eyeX, centerY: eyeY, radiusX: 0.27 * r, radiusY: 0.34 * r, color: GamePalette.ghostEye, into: canvas)
            _ = canvas.fillCircle(centerX: eyeX + heading.x * 0.12 * r, centerY: eyeY + heading.y * 0.15 * r,
                                  radius: 0.15 * r, color: GamePalette.ghostPupil)
        }
        return rect
    }

    private static func fillEllipse(centerX: Double, centerY: Double, radiusX: Double, radiusY: Double, color: RGB,
                                    into canvas: Canvas) {
        let x0 = max(Int((centerX - radiusX).rounded(.down)), 0), x1 = min(Int((centerX + radiusX).rounded(.up)), canvas.width)
        let y0 = max(Int((centerY - radiusY).rounded(.down)), 0), y1 = min(Int((centerY + radiusY).rounded(.up)), canvas.height)
        guard x0 < x1, y0 < y1, radiusX > 0, radiusY > 0 else { return }
        for y in y0 ..< y1 {
            let v = (Double(y) + 0.5 - centerY) / radiusY
            for x in x0 ..< x1 {
                let u = (Double(x) + 0.5 - centerX) / radiusX
                if u * u + v * v <= 1 { canvas[x, y] = color }
            }
        }
    }

    private static func clip(_ r: PixelRect, _ canvas: Canvas) -> (Int, Int, Int, Int) {
        (max(r.x, 0), max(r.y, 0), min(r.x + r.width, canvas.width), min(r.y + r.height, canvas.height))
    }

    private static func normalize(_ v: (Double, Double, Double)) -> (x: Double, y: Double, z: Double) {
        let length = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
        return (v.0 / length, v.1 / length, v.2 / length)
    }

    @inline(__always)
    private static func pow16(_ v: Double) -> Double {
        let v2 = v * v, v4 = v2 * v2, v8 = v4 * v4
        return v8 * v8
    }

    @inline(__always)
    private static func channel(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 255).rounded()) }
}
