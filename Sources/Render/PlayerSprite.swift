// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
import MotionCore
import LibC

/// The player at any resolution: pacman (a disc with a mouth opening
/// towards where he faces, an eye above it once there are pixels enough)
/// or the ball (with a mark on its surface that shows it rolling). Sizes
/// are the physics' radius in pixels. `smooth` blends edges by coverage and
/// shades the ball (the framebuffer); without it every pixel is in or out
/// (the terminal's coarse half blocks, where blending reads as noise).
enum PlayerSprite {
    /// Widest the mouth opens, each side of the facing, radians (40°).
    static let mouthHalfAngle = 0.70

    static func paint(_ style: PlayerStyle, motion: PlayerMotion, centerX: Double, centerY: Double, radius: Double,
                      smooth: Bool, into canvas: Canvas) -> PixelRect {
        switch style {
        case .pacman:
            return pacman(motion, centerX: centerX, centerY: centerY, radius: radius, smooth: smooth, into: canvas)
        case .ball:
            let rect = smooth
                ? PixelSprites.paintBall(center: (centerX, centerY), radius: radius, into: canvas)
                : Sprites.disc(centerX: centerX, centerY: centerY, radius: radius, color: GamePalette.ball, into: canvas)
            mark(motion.mark, centerX: centerX, centerY: centerY, radius: radius, smooth: smooth, into: canvas)
            return rect
        }
    }

    private static func pacman(_ motion: PlayerMotion, centerX: Double, centerY: Double, radius: Double, smooth: Bool,
                               into canvas: Canvas) -> PixelRect {
        let rect = PixelRect.around(centerX: centerX, centerY: centerY, radius: radius)
        guard radius > 0, centerX.isFinite, centerY.isFinite else { return rect }
        // Too few pixels for a mouth to read: a plain disc, at least one pixel.
        guard radius >= 1.5 else { return Sprites.disc(centerX: centerX, centerY: centerY, radius: radius, color: GamePalette.pacman, into: canvas) }
        let fx = cos(motion.facing), fy = sin(motion.facing)
        let half = mouthHalfAngle * motion.mouth
        let (sinHalf, cosHalf) = (sin(half), cos(half))
        let x0 = max(rect.x, 0), y0 = max(rect.y, 0)
        let x1 = min(rect.x + rect.width, canvas.width), y1 = min(rect.y + rect.height, canvas.height)
        guard x0 < x1, y0 < y1 else { return rect }
        for y in y0 ..< y1 {
            let dy = Double(y) + 0.5 - centerY
            for x in x0 ..< x1 {
                let dx = Double(x) + 0.5 - centerX
                let distance = (dx * dx + dy * dy).squareRoot()
                var coverage = smooth ? min(max(radius + 0.5 - distance, 0), 1) : (distance <= radius ? 1 : 0)
                guard coverage > 0 else { continue }
                if half > 0 {
                    // Along the facing and across it; the mouth is where |across| < along · tan(half).
                    let along = dx * fx + dy * fy, across = abs(dx * fy - dy * fx)
                    // Signed distance (pixels) from the mouth's edge, positive outside the mouth.
                    let outside = across * cosHalf - along * sinHalf
                    if along > 0 {
                        coverage = smooth ? min(coverage, min(max(outside + 0.5, 0), 1)) : (outside > 0 ? coverage : 0)
                    }
                }
                guard coverage > 0 else { continue }
                canvas[x, y] = coverage >= 1 ? GamePalette.pacman : canvas[x, y].blended(towards: GamePalette.pacman, fraction: coverage)
            }
        }
        if radius >= 5 {
            // The eye sits above the mouth, on the side of the face that is up the screen.
            var px = fy, py = -fx
            if py > 0 || (py == 0 && px < 0) { px = -px; py = -py }
            let ex = centerX + fx * 0.12 * radius + px * 0.5 * radius
            let ey = centerY + fy * 0.12 * radius + py * 0.5 * radius
            canvas.fillCircle(centerX: ex, centerY: ey, radius: 0.13 * radius, color: GamePalette.pacmanEye)
        }
        return rect
    }

    /// The rolling mark: a spot where the marked point of the surface faces
    /// the viewer, and one for its opposite, so one shows most of the time.
    private static func mark(_ mark: Vector3, centerX: Double, centerY: Double, radius: Double, smooth: Bool,
                             into canvas: Canvas) {
        guard radius >= 3 else { return }
        for side in stride(from: 1.0, through: -1.0, by: -2.0) {
            let m = mark * side
            guard m.z < -0.2 else { continue }   // near the rim it would stick out of the outline
            let spot = radius * 0.28 * (-m.z).squareRoot()   // foreshortened towards the rim
            canvas.fillCircle(centerX: centerX + m.x * radius * 0.85, centerY: centerY + m.y * radius * 0.85,
                              radius: max(spot, 0.8), color: GamePalette.ballMark)
        }
    }
}
