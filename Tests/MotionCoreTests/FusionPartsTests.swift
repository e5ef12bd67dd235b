// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import MotionCore
import LibC

/// The attitude filter's parts on their own: the low-pass it averages with,
/// and the bias estimator's promise that its pace does not depend on the rate.
@Suite("Attitude filter parts")
struct FusionPartsTests {
    @Test("the low-pass starts with the running mean, passes a constant unchanged, and halves nothing at DC")
    func lowPassStart() {
        var filter = ButterworthLowPass<SIMD4<Double>>()
        #expect(filter.update(SIMD4(2, 0, 0, 0), dt: 0, timeConstant: 1) == SIMD4(2, 0, 0, 0))
        #expect(filter.update(SIMD4(4, 0, 0, 0), dt: 0.01, timeConstant: 1) == SIMD4(3, 0, 0, 0))
        for _ in 0 ..< 200 { filter.update(SIMD4(5, 1, 0, 0), dt: 0.01, timeConstant: 1) }
        #expect(filter.isSettled)
        for _ in 0 ..< 2000 { filter.update(SIMD4(5, 1, 0, 0), dt: 0.01, timeConstant: 1) }
        #expect(abs(filter.value.x - 5) < 1e-9 && abs(filter.value.y - 1) < 1e-9)
    }

    /// The output's amplitude for a sine of `hertz` sampled at `rate` (jittered when asked).
    func gain(hertz: Double, rate: Double, jitter: Bool = false) -> Double {
        var filter = ButterworthLowPass<SIMD4<Double>>()
        var t = 0.0, peak = 0.0
        var seed: UInt64 = 7
        while t < 60 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let dt = jitter ? (0.5 + Double(seed >> 11) / Double(1 << 53)) / rate : 1 / rate
            t += dt
            let y = filter.update(SIMD4(sin(2 * .pi * hertz * t), 0, 0, 0), dt: dt, timeConstant: 3).x
            if t > 40 { peak = max(peak, abs(y)) }
        }
        return peak
    }

    @Test("its cut-off, √2 / (2π τ), is the same at 25 Hz, 1 kHz and with uneven timing")
    func lowPassRate() {
        let cutoff = 2.0.squareRoot() / (2 * .pi * 3)
        for (rate, jitter) in [(25.0, false), (1000.0, false), (200.0, true)] {
            // A Butterworth filter passes 1/√2 at its cut-off, and 1/√(1 + 4⁴) = 0.062 at four times it.
            let atCutoff = gain(hertz: cutoff, rate: rate, jitter: jitter), above = gain(hertz: 4 * cutoff, rate: rate, jitter: jitter)
            #expect(abs(atCutoff - 0.5.squareRoot()) < 0.02, "\(rate) Hz: \(atCutoff)")
            #expect(above < 0.075, "\(rate) Hz: \(above)")
        }
    }

    @Test("measured at rest without pause, the bias settles at the rest sigma whatever the rate",
          arguments: [25.0, 1000.0])
    func biasSettles(rate: Double) {
        var estimator = GyroBiasEstimator(noise: GyroBiasNoise(), maxBias: 0.2)
        let truth = Vector3(0.01, -0.02, 0.03)
        for _ in 0 ..< Int(20 * rate) {
            estimator.predict(dt: 1 / rate)
            estimator.update(restingRate: truth, dt: 1 / rate)
        }
        #expect((estimator.bias - truth).length < 1e-5)
        #expect(abs(estimator.sigma - GyroBiasNoise().restSigma) < 0.05 * GyroBiasNoise().restSigma, "σ \(estimator.sigma)")
    }

    @Test("a measurement beyond any believable bias moves the estimate no further than the largest bias")
    func biasClamped() {
        var estimator = GyroBiasEstimator(noise: GyroBiasNoise(), maxBias: 0.2)
        estimator.predict(dt: 0.01)
        estimator.update(restingRate: Vector3(50, -50, .infinity), dt: 0.01)
        #expect(abs(estimator.bias.x) <= 0.2 && abs(estimator.bias.y) <= 0.2 && estimator.bias.z.isFinite)
    }
}
