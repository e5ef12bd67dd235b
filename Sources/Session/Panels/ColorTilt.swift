// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import LibC

/// ColorTilt, the tutorial's demo of the motion layer: a shake picks one of
/// six colours by its axis and sign; with the accelerometer on, how far the
/// board leans from the neutral sets the colour's intensity; with the
/// gyroscope on, how fast it turns does. Either can be switched off live.
public struct ColorTilt: MotionModel {
    /// The six colours, by `Shake.direction`: +x, −x, +y, −y, +z, −z.
    public static let colorNames = ["red", "cyan", "green", "magenta", "blue", "yellow"]

    public struct Snapshot: BitwiseCopyable, Sendable, Equatable {
        /// Index into `colorNames`.
        public var color = 0
        /// 0…1.
        public var intensity = 0.0
        public var accelerometerOn = true
        public var gyroscopeOn = true
        /// Whether the sensor has sent a rotation rate.
        public var hasGyroscope = false
        public var shakes = 0
        /// What set the intensity last: the lean (degrees) and the rotation rate (°/s).
        public var leanDegrees = 0.0
        public var rotationDegreesPerSecond = 0.0
    }

    public enum Command: BitwiseCopyable, Sendable {
        case toggleAccelerometer, toggleGyroscope
    }

    /// The lean that gives full intensity, and the rotation rate (one turn a second).
    public static let fullLean = 45.0
    public static let fullRotation = 360.0

    public private(set) var snapshot = Snapshot()

    public init() {}

    public mutating func observe(_ sample: MotionSample, motion: FusedMotion, shake: Shake?) {
        if let shake {
            snapshot.color = shake.direction
            snapshot.shakes += 1
        }
        if sample.hasRotationRate { snapshot.hasGyroscope = true }
        if sample.hasRotationRate {
            snapshot.rotationDegreesPerSecond = motion.rotationRate.length * 180 / .pi
        }
    }

    public mutating func apply(_ command: Command) {
        switch command {
        case .toggleAccelerometer: snapshot.accelerometerOn.toggle()
        case .toggleGyroscope: snapshot.gyroscopeOn.toggle()
        }
    }

    public mutating func step(dt: Double, gravity: Vector3) {
        let g = gravity.length
        if g > 0 { snapshot.leanDegrees = acos(min(1, max(-1, -gravity.z / g))) * 180 / .pi }
        var intensity = 0.0
        var anyOn = false
        if snapshot.accelerometerOn {
            anyOn = true
            intensity = max(intensity, min(1, snapshot.leanDegrees / Self.fullLean))
        }
        if snapshot.gyroscopeOn && snapshot.hasGyroscope {
            anyOn = true
            intensity = max(intensity, min(1, snapshot.rotationDegreesPerSecond / Self.fullRotation))
        }
        // Both off: the colour alone, at full strength.
        snapshot.intensity = anyOn ? intensity : 1
    }
}
