// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// Nearest-colour lookup into the xterm 256-colour palette.
///
/// Only the 6×6×6 cube (16…231) and the grey ramp (232…255) are used: their
/// values are fixed by convention, while entries 0…15 are themed by the user
/// and could be anything.
public enum XtermPalette {
    /// The channel value of cube level 0…5: 0, 95, 135, 175, 215, 255.
    @inline(__always)
    static func cubeLevel(_ index: Int) -> Int {
        switch index {
        case 0: 0
        case 1: 95
        default: 55 + 40 * index
        }
    }

    /// Index (0…5) of the cube level nearest to `value`; the thresholds are
    /// the midpoints between neighbouring levels.
    @inline(__always)
    static func nearestCubeIndex(_ value: UInt8) -> Int {
        let v = Int(value)
        if v < 48 { return 0 }
        if v < 115 { return 1 }
        return (v - 35) / 40
    }

    /// The palette index (16…255) that looks most like `color`, by squared
    /// RGB distance between the best cube entry and the best grey.
    public static func index(of color: RGB) -> UInt8 {
        let ri = nearestCubeIndex(color.r), gi = nearestCubeIndex(color.g), bi = nearestCubeIndex(color.b)
        let cubeDistance = distance2(color, cubeLevel(ri), cubeLevel(gi), cubeLevel(bi))

        let average = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let greyStep = min(max((average - 3) / 10, 0), 23)
        let grey = 8 + 10 * greyStep
        let greyDistance = distance2(color, grey, grey, grey)

        if greyDistance < cubeDistance { return UInt8(232 + greyStep) }
        return UInt8(16 + 36 * ri + 6 * gi + bi)
    }

    /// The colour the palette entry stands for (16…255; 0…15 are not fixed
    /// and answer black).
    public static func color(of index: UInt8) -> RGB {
        let i = Int(index)
        if i >= 232 {
            let v = UInt8(8 + 10 * (i - 232))
            return RGB(v, v, v)
        }
        guard i >= 16 else { return RGB(0, 0, 0) }
        let c = i - 16
        return RGB(UInt8(cubeLevel(c / 36)), UInt8(cubeLevel(c / 6 % 6)), UInt8(cubeLevel(c % 6)))
    }

    @inline(__always)
    private static func distance2(_ c: RGB, _ r: Int, _ g: Int, _ b: Int) -> Int {
        let dr = Int(c.r) - r, dg = Int(c.g) - g, db = Int(c.b) - b
        return dr * dr + dg * dg + db * db
    }
}
