// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// The game's colours, in one place so the terminal and framebuffer back ends
/// agree. Chosen to stay distinct after mapping to the 256-colour palette
/// (the Linux console), not only in truecolour.
public enum GamePalette {
    public static let wall = RGB(88, 100, 140)
    public static let floor = RGB(22, 24, 32)
    public static let exit = RGB(40, 200, 80)
    /// Outside the maze, where the terminal is larger than the picture.
    public static let margin = RGB(0, 0, 0)
    public static let ball = RGB(215, 220, 230)
    public static let ballHighlight = RGB(255, 255, 255)
    /// The spot on the ball that shows it rolling.
    public static let ballMark = RGB(200, 60, 60)
    public static let pacman = RGB(255, 225, 0)
    public static let pacmanEye = RGB(20, 20, 30)
    public static let pellet = RGB(255, 190, 150)
    /// An exit still shut (pellets left): green gone grey.
    public static let exitLocked = RGB(50, 80, 60)
    /// The parallax layer behind the maze: faint, so it never competes with the play.
    public static let parallax = RGB(30, 34, 52)
    public static let parallaxBright = RGB(110, 120, 170)
    /// The framebuffer's walls are lit from the top left: a lighter top and
    /// left edge, a darker bottom and right one, where they meet the floor.
    public static let wallLight = RGB(130, 144, 190)
    public static let wallShadow = RGB(52, 60, 92)
    /// The rings of the exit marker on its green cell.
    public static let exitRing = RGB(20, 110, 45)
    public static let exitCentre = RGB(150, 255, 170)
    public static let ghostEye = RGB(245, 245, 255)
    public static let ghostPupil = RGB(30, 40, 140)

    /// The red that the picture is tinted towards while "caught!" flashes,
    /// and how far.
    public static let caughtTint = RGB(255, 0, 0)
    public static let caughtTintAmount = 0.35

    public static let statusText = RGB(235, 235, 235)
    public static let statusBackground = RGB(40, 44, 64)
    public static let statusCaughtBackground = RGB(170, 20, 20)
    public static let statusWarning = RGB(255, 215, 0)
    /// The sensor's name on the status line: set apart from the game figures.
    public static let sensorText = RGB(150, 220, 255)
    public static let footerText = RGB(160, 165, 180)
    public static let footerBackground = RGB(0, 0, 0)
    public static let messageText = RGB(255, 255, 255)
    public static let messageBackground = RGB(20, 40, 110)

    /// Up to `Level.maxGhosts` ghosts, each its own colour; none is close to
    /// the wall, floor, exit, ball or pacman colours.
    public static let ghosts: [RGB] = [
        RGB(255, 60, 60), RGB(255, 140, 220), RGB(80, 220, 255), RGB(255, 170, 40),
        RGB(180, 90, 255), RGB(160, 255, 255), RGB(255, 110, 130), RGB(120, 255, 190),
        RGB(200, 40, 140), RGB(255, 200, 160), RGB(60, 140, 255), RGB(180, 255, 60),
        RGB(255, 90, 0), RGB(150, 150, 255), RGB(0, 200, 170), RGB(230, 120, 255),
    ]

    /// The colour of ghost `index` (wrapping, should a level ever have more).
    @inline(__always)
    public static func ghost(_ index: Int) -> RGB { ghosts[index % ghosts.count] }
}
