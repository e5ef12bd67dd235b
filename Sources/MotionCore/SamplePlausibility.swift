// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Refuses readings no sensor could have produced, so a corrupted scan (a
/// torn buffer, a driver bug, a wrong scan format) never reaches the ball.
///
/// Limits: 400 g (the highest-range MEMS accelerometers), 200 rad/s
/// (over 11 000 °/s; MEMS gyros stop at 4 000 °/s) and 10 000 µT (MEMS
/// magnetometers saturate below 5 000 µT; the Earth's field is under 70). Time must not run
/// backwards per device: a scan stamped before the previous one is refused
/// (equal stamps pass: scans without a timestamp element share their read time).
public struct SamplePlausibility: Sendable {
    public static let maxAcceleration = 400 * standardGravity
    public static let maxRotationRate = 200.0
    public static let maxMagneticField = 10_000.0
    @usableFromInline var lastTimestamp: Int64 = .min

    public init() {}

    /// Whether `sample` is possible after the ones accepted so far; remembers it if so.
    @inlinable
    public mutating func accept(_ sample: MotionSample) -> Bool {
        guard sample.timestamp >= lastTimestamp else { return false }
        if sample.hasAcceleration, !Self.within(sample.acceleration, Self.maxAcceleration) { return false }
        if sample.hasRotationRate, !Self.within(sample.rotationRate, Self.maxRotationRate) { return false }
        if sample.hasMagneticField, !Self.within(sample.magneticField, Self.maxMagneticField) { return false }
        lastTimestamp = sample.timestamp
        return true
    }

    @inlinable
    static func within(_ v: Vector3, _ limit: Double) -> Bool {
        // Written so NaN fails too.
        abs(v.x) <= limit && abs(v.y) <= limit && abs(v.z) <= limit
    }
}
