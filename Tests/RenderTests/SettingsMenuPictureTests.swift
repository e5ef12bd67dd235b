// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Game
import MotionCore
import PNG
@testable import Render
import Testing

/// The Settings menu over the maze, on the framebuffer: each setting's
/// line with its value, from the banner; a new feel's banner changes them.
struct SettingsMenuPictureTests {
    @Test("the Settings menu shows each value, and a new banner's values replace them (TILTMAZE_TEST_PICTURE keeps a PNG)")
    func values() throws {
        let screen = try PixelGameView(level: Fixtures.level, sensorName: "mpu6050 on iio:device0", width: 800, height: 480)
        let feel = TiltFeel(sensitivity: 1.4, deadZone: 3, smoothing: 0.05, invertY: true)
        screen.setBanner(LevelBanner(title: "Warm Up", settingLabels: feel.settingLabels))
        let menu = MenuState(.settings, selected: 1)
        _ = screen.compose(WorldSnapshot(), menu: menu)
        func pixels() -> [RGB] { (0 ..< 480).flatMap { y in (0 ..< 800).map { x in screen.picture[x, y] } } }
        let first = pixels()
        if let path = ProcessInfo.processInfo.environment["TILTMAZE_TEST_PICTURE"] {
            var bytes: [UInt8] = []
            for y in 0 ..< 480 { for x in 0 ..< 800 { let p = screen.picture[x, y]; bytes += [p.r, p.g, p.b] } }
            try PNGImage(width: 800, height: 480, pixels: bytes).write(to: "\(path)-settings-800x480.png")
        }
        screen.setBanner(LevelBanner(title: "Warm Up", settingLabels: feel.adjusted(.deadZone, by: 1).settingLabels))
        screen.forceFullRepaint()
        _ = screen.compose(WorldSnapshot(), menu: menu)
        #expect(pixels() != first, "the dead zone's new value is drawn")
    }
}
