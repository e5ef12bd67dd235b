// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Standard gravity, m/s² (the value IIO and HID scales are defined against).
public let standardGravity = 9.80665

/// One reading of a motion sensor, in SI units and the board's frame.
///
/// Frame: x to the right of the screen, y towards its top, z out of the
/// screen towards the player (right-handed). A board lying flat and still
/// reads `acceleration ≈ (0, 0, +9.81)`: an accelerometer measures the push
/// that holds it up, the opposite of gravity.
///
/// Bitwise-copyable (88 bytes), so it moves through the lock-free ring
/// without reference counting or allocation.
public struct MotionSample: BitwiseCopyable, Sendable, Equatable {
    /// `CLOCK_MONOTONIC` time of the reading, nanoseconds.
    public var timestamp: Int64
    /// Specific force, m/s².
    public var acceleration: Vector3
    /// Angular velocity about x, y, z, rad/s (right-hand rule).
    public var rotationRate: Vector3
    /// Magnetic flux density, µT (IIO's gauss × 100), the Earth's field
    /// being 25–65 µT. Present on the samples where the magnetometer gave a
    /// new reading, which is usually less often than the others.
    public var magneticField: Vector3
    /// Which of the vectors the sensor actually measured.
    public var fields: Fields

    public struct Fields: OptionSet, BitwiseCopyable, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let acceleration = Fields(rawValue: 1 << 0)
        public static let rotationRate = Fields(rawValue: 1 << 1)
        public static let magneticField = Fields(rawValue: 1 << 2)
        /// Every field a sample can carry.
        public static let all: Fields = [.acceleration, .rotationRate, .magneticField]
    }

    @inlinable
    public init(timestamp: Int64, acceleration: Vector3 = .zero, rotationRate: Vector3 = .zero,
                magneticField: Vector3 = .zero, fields: Fields) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.fields = fields
    }

    public var hasAcceleration: Bool { fields.contains(.acceleration) }
    public var hasRotationRate: Bool { fields.contains(.rotationRate) }
    public var hasMagneticField: Bool { fields.contains(.magneticField) }
}

/// µT in one gauss, the unit IIO's ABI gives magnetic fields in.
public let microteslaPerGauss = 100.0
