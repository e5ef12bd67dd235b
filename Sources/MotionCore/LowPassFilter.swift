// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A first-order low-pass filter on vectors, driven by sample timestamps.
///
/// The iOS tutorials this game descends from filter the accelerometer with a
/// fixed `α` per sample, which makes the cut-off depend on the sample rate. Here
/// `α = dt / (τ + dt)` comes from each sample's own interval, so the same time
/// constant holds at 100 Hz, 1 kHz, or with an uneven evdev stream.
public struct LowPassFilter: Sendable {
    /// Time constant τ in seconds (cut-off frequency 1 / (2π τ)).
    public var timeConstant: Double
    public private(set) var value: Vector3 = .zero
    private var lastTimestamp: Int64 = 0
    private var primed = false

    public init(timeConstant: Double) {
        precondition(timeConstant >= 0, "time constant must not be negative")
        self.timeConstant = timeConstant
    }

    /// Creates a filter from its cut-off frequency in hertz.
    public init(cutoffHz: Double) {
        precondition(cutoffHz > 0, "cut-off frequency must be positive")
        self.init(timeConstant: 1 / (2 * .pi * cutoffHz))
    }

    /// Folds in a reading taken at `timestamp` (monotonic ns) and returns the filtered value.
    /// The first reading is taken as is, so the output does not ramp up from zero.
    @discardableResult
    public mutating func update(_ input: Vector3, timestamp: Int64) -> Vector3 {
        if !primed {
            primed = true
        } else {
            let dt = Double(max(0, timestamp - lastTimestamp)) / 1e9
            let alpha = timeConstant == 0 ? 1 : dt / (timeConstant + dt)
            value = value + (input - value) * alpha
            lastTimestamp = timestamp
            return value
        }
        value = input
        lastTimestamp = timestamp
        return value
    }

    /// Forgets the history; the next reading is taken as is.
    public mutating func reset() { primed = false; value = .zero }
}
