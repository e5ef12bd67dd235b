// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import MotionCore

/// How the board feels to one player: what the players of motion-controlled
/// games ask to set (JoyShockMapper's sensitivity, dead zone and smoothing
/// time; inverted axes), applied to the tilt before it rolls the ball.
/// The defaults are the game's own feel and change nothing.
public struct TiltFeel: Sendable, Equatable, BitwiseCopyable {
    /// × the ball's acceleration for a given tilt (0.25–4; 1 as shipped).
    public var sensitivity: Double
    /// Tilts smaller than this, in degrees from the neutral, roll nothing
    /// (0–15; 0 as shipped): a hand's tremor and a board not quite level
    /// leave the ball still. Beyond it the tilt counts from its edge, so
    /// the ball starts gently, and a full tilt is as strong as without one.
    public var deadZone: Double
    /// The tilt's smoothing time, seconds (0–0.5; 0 as shipped): a
    /// first-order low-pass. Steadier, and that much later.
    public var smoothing: Double
    /// The board's left–right and forward–back tilts turned round.
    public var invertX: Bool
    public var invertY: Bool

    public init(sensitivity: Double = 1, deadZone: Double = 0, smoothing: Double = 0, invertX: Bool = false, invertY: Bool = false) {
        self.sensitivity = sensitivity
        self.deadZone = deadZone
        self.smoothing = smoothing
        self.invertX = invertX
        self.invertY = invertY
    }

    /// The game's own feel.
    public static let standard = TiltFeel()

    public static let sensitivities: ClosedRange<Double> = 0.25 ... 4
    public static let deadZones: ClosedRange<Double> = 0 ... 15
    public static let smoothings: ClosedRange<Double> = 0 ... 0.5

    /// Why a value is out of its range, naming it and the range; nil when all are in.
    public var problem: String? {
        if !sensitivity.isFinite || !Self.sensitivities.contains(sensitivity) { return "sensitivity must be between 0.25 and 4" }
        if !deadZone.isFinite || !Self.deadZones.contains(deadZone) { return "dead zone must be between 0 and 15 degrees" }
        if !smoothing.isFinite || !Self.smoothings.contains(smoothing) { return "smoothing must be between 0 and 0.5 seconds" }
        return nil
    }

    /// "sensitivity 1.5×, dead zone 3°, smoothing 0.1 s, x inverted": what is not as shipped; "as shipped" when nothing.
    public var summary: String {
        var parts: [String] = []
        if sensitivity != 1 { parts.append("sensitivity \(MotionSampleText.decimal(sensitivity, digits: 2))×") }
        if deadZone != 0 { parts.append("dead zone \(MotionSampleText.decimal(deadZone))°") }
        if smoothing != 0 { parts.append("smoothing \(MotionSampleText.decimal(smoothing, digits: 2)) s") }
        if invertX || invertY { parts.append((invertX && invertY ? "x and y" : invertX ? "x" : "y") + " inverted") }
        return parts.isEmpty ? "as shipped" : parts.joined(separator: ", ")
    }
}

extension TiltFeel {
    /// The settings the Settings menu lists, in its order.
    public enum Setting: Int, CaseIterable, Sendable {
        case sensitivity, deadZone, smoothing, invertX, invertY
    }

    // The steps the menu moves through: even ratios for the sensitivity,
    // finer steps where small values matter for the others.
    static let sensitivitySteps = [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 2.8, 4]
    static let deadZoneSteps = [0.0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15]
    static let smoothingSteps = [0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5]

    /// `setting` moved `step` places along its steps (a toggle turns over), held within its range.
    public func adjusted(_ setting: Setting, by step: Int) -> TiltFeel {
        func moved(_ value: Double, _ steps: [Double]) -> Double {
            // From the step nearest the value (a value from the command line may lie between).
            let nearest = steps.indices.min { abs(steps[$0] - value) < abs(steps[$1] - value) }!
            return steps[min(max(nearest + step, 0), steps.count - 1)]
        }
        var feel = self
        switch setting {
        case .sensitivity: feel.sensitivity = moved(sensitivity, Self.sensitivitySteps)
        case .deadZone: feel.deadZone = moved(deadZone, Self.deadZoneSteps)
        case .smoothing: feel.smoothing = moved(smoothing, Self.smoothingSteps)
        case .invertX: feel.invertX.toggle()
        case .invertY: feel.invertY.toggle()
        }
        return feel
    }

    /// The Settings menu's lines, in `Setting`'s order: name and value, in
    /// ASCII (the framebuffer's font). Made when the feel changes, not when drawn.
    public var settingLabels: [String] {
        func row(_ name: String, _ value: String) -> String { name + String(repeating: " ", count: max(1, 14 - name.count)) + value }
        return [row("Sensitivity", MotionSampleText.decimal(sensitivity, digits: 2) + "x"),
                row("Dead zone", MotionSampleText.decimal(deadZone, digits: 0) + " deg"),
                row("Smoothing", MotionSampleText.decimal(smoothing, digits: 2) + " s"),
                row("Invert x", invertX ? "on" : "off"),
                row("Invert y", invertY ? "on" : "off")]
    }
}

/// A feel at work: the tilt each physics tick rolls the ball by, with the
/// smoothing's state. The physics thread's; allocates nothing.
public struct FeltTilt: Sendable {
    /// A new feel starts its smoothing afresh: from the next tilt, not one held long ago.
    public var feel: TiltFeel { didSet { smoothed = nil } }
    private var smoothed: Vector3?

    public init(_ feel: TiltFeel) { self.feel = feel }

    /// Gravity in the board's plane as the player's feel has it, `dt`
    /// seconds after the last call. z passes unchanged (the ball only rolls in the plane).
    public mutating func apply(_ gravity: Vector3, dt: Double) -> Vector3 {
        guard feel != .standard else { return gravity }
        var x = feel.invertX ? -gravity.x : gravity.x
        var y = feel.invertY ? -gravity.y : gravity.y
        if feel.deadZone > 0 {
            // In sines of the tilt: zero at the dead zone's edge, a full tilt left as it was.
            let edge = sin(feel.deadZone * .pi / 180)
            let length = (x * x + y * y).squareRoot()
            let s = min(length / standardGravity, 1)
            let kept = s > edge ? (s - edge) / (1 - edge) * standardGravity / length : 0
            x *= kept
            y *= kept
        }
        var felt = Vector3(x * feel.sensitivity, y * feel.sensitivity, gravity.z)
        if feel.smoothing > 0 {
            if let previous = smoothed {
                let a = dt / (feel.smoothing + dt)
                felt = Vector3(previous.x + a * (felt.x - previous.x), previous.y + a * (felt.y - previous.y), felt.z)
            }
            smoothed = felt
        }
        return felt
    }
}
