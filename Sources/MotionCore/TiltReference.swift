// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The player's neutral tilt: the way the board is held when the ball should
/// stay put. Tilt is then measured from it, not from level.
///
/// The iOS tutorials subtract the accelerometer reading captured at
/// "calibrate" from later readings, clamped to 0.5 g per axis. Subtracting
/// vectors distorts large tilts (the corrected vector is no longer 1 g
/// long, and the axes mix); here the neutral is a direction, and the
/// correction a rotation that carries it to level, so every tilt away from
/// the neutral reads exactly as the same tilt away from level would. The
/// 0.5 g clamp becomes its angle: 30° from level at most (sin 30° = 0.5).
public struct TiltReference: Sendable, Equatable, BitwiseCopyable {
    /// The most a neutral may lean from level, radians.
    public static let maximumAngle = 30 * Double.pi / 180

    /// Level: no correction.
    public static let level = TiltReference(neutralUp: Vector3(0, 0, 1))

    /// "Up" (against gravity) in the board frame when the board is held at the neutral; unit length.
    public private(set) var neutralUp: Vector3
    /// Whether the neutral asked for leaned further than `maximumAngle` and was brought back to it.
    public private(set) var wasClamped: Bool
    /// Whether the correction applies. Off keeps the neutral for later.
    public var isEnabled: Bool
    /// Takes `neutralUp` to board z: the shortest such rotation, so the
    /// board's x and y keep their meaning as far as they can.
    private var correction: Quaternion

    /// The neutral whose up is `up` (any length but zero), clamped to `maximumAngle`.
    public init(neutralUp up: Vector3, isEnabled: Bool = true) {
        let length = up.length
        // A unit vector read back from a file stays bit for bit what was saved.
        var unit = length > 0 && length.isFinite ? (abs(length - 1) < 1e-12 ? up : up / length) : Vector3(0, 0, 1)
        let angle = acos(min(1, max(-1, unit.z)))
        wasClamped = angle > Self.maximumAngle + 1e-9
        if wasClamped {
            // Keep the direction of the lean, shorten it to the limit.
            let sideways = Vector3(unit.x, unit.y, 0)
            let s = sideways.length
            let lean = s > 1e-12 ? sideways / s : Vector3(0, 1, 0)
            unit = lean * sin(Self.maximumAngle) + Vector3(0, 0, cos(Self.maximumAngle))
        }
        neutralUp = unit
        self.isEnabled = isEnabled
        correction = AttitudeFilter.aligned(with: unit)
    }

    /// The neutral the board is held at now, given gravity's pull in the board frame.
    public init(capturing gravity: Vector3, isEnabled: Bool = true) {
        self.init(neutralUp: .zero - gravity, isEnabled: isEnabled)
    }

    /// Angle between the neutral and level, radians.
    public var angleFromLevel: Double { acos(min(1, max(-1, neutralUp.z))) }

    /// How far the top edge (+y) and the right edge (+x) of the board are
    /// raised at the neutral, degrees (negative: lowered). A player holding a
    /// phone-like board towards the face raises its top edge.
    public var edgeAngles: (top: Double, right: Double) {
        (atan2(neutralUp.y, neutralUp.z) * 180 / .pi, atan2(neutralUp.x, neutralUp.z) * 180 / .pi)
    }

    /// `gravity` (board frame) as the player means it: measured from the
    /// neutral, so holding the board at the neutral reads as level.
    public func apply(to gravity: Vector3) -> Vector3 {
        isEnabled ? correction.rotate(gravity) : gravity
    }

    /// One line for the player: "level", or "24.0° from level (top edge up 22.0°, right edge down 9.4°)".
    public var summary: String { describe(from: " from level") }

    /// The same, short enough for a status line: "24.0° (top edge up 22.0°, right edge down 9.4°)".
    public var shortSummary: String { describe(from: "") }

    private func describe(from: String) -> String {
        let angle = angleFromLevel * 180 / .pi
        guard angle >= 0.05 else { return "level" }
        let (top, right) = edgeAngles
        // Only the edges that lean: a level edge goes without saying.
        let edges = [("top edge", top), ("right edge", right)].filter { abs($0.1) >= 0.05 }.map { name, degrees in
            "\(name) \(degrees > 0 ? "up" : "down") \(MotionSampleText.decimal(abs(degrees)))°"
        }
        return "\(MotionSampleText.decimal(angle))°\(from) (\(edges.joined(separator: ", ")))"
            + (wasClamped ? ", clamped to \(Int((Self.maximumAngle * 180 / .pi).rounded()))°" : "")
    }
}
