// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Game
import MotionCore

/// `tiltmaze colortilt`: the arena filled with the colour the last shake
/// picked, as bright as the tilt (accelerometer on) or the rotation rate
/// (gyroscope on) says. `a` and `g` (D-pad left and right) switch the two
/// sensors live; q (B, Start) leaves. With the simulated board, the arrows
/// tilt it and 1–6 shake it along +x, −x, +y, −y, +z, −z.
public final class ColorTiltScreen: PanelScreen {
    public let loop: MotionModelLoop<ColorTilt>
    let sensorName: String
    let board: (any CommandedTilt)?
    let shaker: (any CommandedShake)?

    /// The six colours at full intensity, in `ColorTilt.colorNames` order.
    public static let colors = [RGB(255, 40, 40), RGB(0, 230, 230), RGB(40, 230, 40),
                                RGB(230, 0, 230), RGB(60, 90, 255), RGB(255, 230, 0)]

    public init(loop: MotionModelLoop<ColorTilt>, sensorName: String, board: (any CommandedTilt)?,
                shaker: (any CommandedShake)?) {
        self.loop = loop
        self.sensorName = sensorName
        self.board = board
        self.shaker = shaker
    }

    public func handle(_ input: GameInput) -> Bool {
        switch input {
        case .quit, .back, .cancel: return false
        case .character(UInt8(ascii: "a")): loop.send(.toggleAccelerometer)
        case .character(UInt8(ascii: "g")): loop.send(.toggleGyroscope)
        case .character(let c) where c >= UInt8(ascii: "1") && c <= UInt8(ascii: "6"):
            shaker?.shake(direction: Int(c - UInt8(ascii: "1")))
        case .left:
            // A pad's D-pad switches the sensors; the simulated board takes the arrows.
            if let board { board.nudge(right: -1, up: 0) } else { loop.send(.toggleAccelerometer) }
        case .right:
            if let board { board.nudge(right: 1, up: 0) } else { loop.send(.toggleGyroscope) }
        case .up: board?.nudge(right: 0, up: 1)
        case .down: board?.nudge(right: 0, up: -1)
        case .level: board?.level()
        case .select, .character, .pause, .restart, .screenshot: break
        }
        return true
    }

    /// The colour at `intensity`, over black.
    public static func shade(_ color: Int, intensity: Double) -> RGB {
        RGB(0, 0, 0).blended(towards: colors[color], fraction: intensity)
    }

    public func panel(_ s: ColorTilt.Snapshot, status: MotionStatus, now: Int64) -> Panel {
        let gyro: String
        if !s.hasGyroscope && status.samplesSeen > 0 {
            gyro = "gyroscope: this sensor has none"
        } else {
            gyro = "gyroscope \(s.gyroscopeOn ? "on " : "off") (g): \(MotionSampleText.decimal(s.rotationDegreesPerSecond))°/s"
        }
        let lines = [
            "Shake to pick a colour: \(ColorTilt.colorNames[s.color])",
            "intensity \(Int((s.intensity * 100).rounded())) %",
            "",
            "accelerometer \(s.accelerometerOn ? "on " : "off") (a): lean \(MotionSampleText.decimal(s.leanDegrees))°",
            gyro,
            "shakes: \(s.shakes)",
            "",
            "Sensor: \(sensorName)",
        ]
        let hints = board != nil
            ? "arrows tilt · 1-6 shake · a accelerometer · g gyroscope · q quit"
            : "shake · a/left accelerometer · g/right gyroscope · q quit"
        return Panel(title: "TiltMaze · ColorTilt", lines: lines, arena: Self.shade(s.color, intensity: s.intensity), hints: hints)
    }
}

