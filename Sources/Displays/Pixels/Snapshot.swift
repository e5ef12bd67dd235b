// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev
import Game
import PNG

/// Pictures of the game without a device: the framebuffer renderer drawing
/// into memory laid out as a real framebuffer would be, read back as a PNG.
/// What `tiltmaze snapshot` writes, what the golden-picture tests compare,
/// and what the README shows.
public enum Snapshot {
    /// The level's opening frame (ball at the start, ghosts at their first
    /// waypoints, the clock at zero) on a `width`×`height` screen in `format`.
    public static func openingFrame(of level: Level, width: Int, height: Int, format: PixelFormat,
                                    lineLength: Int? = nil, sensorName: String = "simulated board") throws(PictureTooSmall)
        -> PixelSurface {
        var snapshot = WorldSnapshot()
        World(level: level, dt: 1.0 / 240).snapshot(into: &snapshot)
        let screen = try PixelGameView(level: level, sensorName: sensorName, width: width, height: height)
        let surface = PixelSurface(width: width, height: height, format: format, lineLength: lineLength)
        for rect in screen.compose(snapshot) { surface.copy(rect, from: screen.picture) }
        return surface
    }

    /// What `surface` shows, as an 8-bit RGB image (narrow channels widened
    /// by repeating their top bits, as a screen capture does).
    public static func image(of surface: PixelSurface) -> PNGImage {
        PNGImage(width: surface.width, height: surface.height, pixels: surface.rgbBytes())
    }
}
