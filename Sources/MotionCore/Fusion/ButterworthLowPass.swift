// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A second-order Butterworth low-pass over several channels at once, for
/// samples that come at any rate and at uneven times.
///
/// Why Butterworth and not the first-order filter of `LowPassFilter`: the
/// attitude filter low-passes the accelerometer to average a hand's pushes
/// away, and a push is a back-and-forth of a second or so; the second order
/// falls off twice as steeply above its cut-off, so it removes more of the
/// push for the same lag on a real tilt.
///
/// Time constant τ gives the cut-off √2 / (2π τ) (the convention of Laidig &
/// Seel's VQF, so that a ramp is followed with a lag of τ); it may change
/// from one sample to the next. Coefficients come from the bilinear
/// transform of the mean interval between samples (a running mean over
/// about a hundred of them), recomputed only when that or τ changes by more
/// than 0.1 %, which costs a `tan`. The mean and not each sample's own
/// interval: with intervals drawn from 0.5–1.5 times the mean (FusionPartsTests),
/// coefficients changed every sample passed 8 % more than they should at
/// the cut-off and 26 % more at four times it; at the mean interval, under
/// 3 % and 13 %.
///
/// The first τ seconds give the running mean of what came in, and the filter
/// then starts in the steady state of that mean: a cold filter would start
/// from zero and take several τ to reach the signal, and starting from the
/// first sample alone would keep that one sample's noise for seconds.
struct ButterworthLowPass<Value: SIMD>: Sendable where Value.Scalar == Double, Value: Sendable {
    private(set) var value = Value()
    private var state0 = Value(), state1 = Value()
    private var sum = Value()
    private var meanTime = 0.0, meanCount = 0.0
    /// Whether the running mean of the start is over and the filter proper runs.
    private(set) var isSettled = false
    private var coefficients = Coefficients(b0: 0, a1: 0, a2: 0)
    private var coefficientStep = 0.0, coefficientTime = 0.0
    private var meanStep = 0.0

    struct Coefficients: Sendable {
        // b1 = 2 b0 and b2 = b0 for a low-pass: only three numbers to keep.
        var b0: Double, a1: Double, a2: Double
    }

    init() {}

    /// Folds in `input`, which came `dt` seconds after the previous input
    /// (dt of the first input is not used), with time constant `timeConstant`
    /// (s, positive), and returns the filtered value.
    @discardableResult
    mutating func update(_ input: Value, dt: Double, timeConstant: Double) -> Value {
        if !isSettled {
            sum += input
            meanCount += 1
            if meanCount > 1 { meanTime += dt }
            value = sum / Value(repeating: meanCount)
            if meanTime >= timeConstant {
                setSteady(at: value, timeConstant: timeConstant)
                isSettled = true
            }
            return value
        }
        if dt > 0 {
            meanStep = meanStep == 0 ? dt : meanStep + (dt - meanStep) * 0.01
            prepare(dt: meanStep, timeConstant: timeConstant)
        }
        let c = coefficients
        let b0 = Value(repeating: c.b0)
        // Direct form II transposed: two state vectors, one multiply-add per tap.
        let y = b0 * input + state0
        state0 = 2 * b0 * input - Value(repeating: c.a1) * y + state1
        state1 = b0 * input - Value(repeating: c.a2) * y
        value = y
        return y
    }

    /// Puts the filter where a constant `input` would have left it.
    mutating func setSteady(at input: Value, timeConstant: Double) {
        if coefficientStep == 0 {
            // No interval seen yet: take the mean's own.
            prepare(dt: meanCount > 1 ? meanTime / (meanCount - 1) : timeConstant / 100, timeConstant: timeConstant)
        }
        let c = coefficients
        state0 = input * (1 - c.b0)
        state1 = input * (c.b0 - c.a2)
        value = input
    }

    private mutating func prepare(dt: Double, timeConstant: Double) {
        guard abs(dt - coefficientStep) > 1e-3 * coefficientStep
              || abs(timeConstant - coefficientTime) > 1e-3 * coefficientTime else { return }
        coefficients = Self.coefficients(timeConstant: timeConstant, dt: dt)
        coefficientStep = dt
        coefficientTime = timeConstant
    }

    static func coefficients(timeConstant: Double, dt: Double) -> Coefficients {
        let cutoff = 2.0.squareRoot() / (2 * .pi * timeConstant)
        let c = tan(.pi * cutoff * min(dt, 0.49 / cutoff))   // keep the pre-warp below Nyquist
        let d = c * c + 2.0.squareRoot() * c + 1
        return Coefficients(b0: c * c / d, a1: 2 * (c * c - 1) / d, a2: (1 - 2.0.squareRoot() * c + c * c) / d)
    }
}
