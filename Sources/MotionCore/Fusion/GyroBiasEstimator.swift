// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Estimates the gyroscope's bias with a three-state Kalman filter, fed in
/// two ways (Laidig & Seel's VQF does the same; this is TiltMaze's own code):
///
/// - **At rest** the gyroscope's mean reading is the bias itself: a direct
///   measurement of all three axes, trusted a great deal.
/// - **In motion** the accelerometer's correction is the only witness: what
///   the inclination correction keeps turning, about earth's level axes, is
///   the bias not yet taken out, seen through the attitude. It says nothing
///   about the bias's vertical part and is polluted by what the pushes leave
///   in the low-passed accelerometer, so it is trusted far less, and the
///   vertical part is held near where it was by a very weak pull to zero.
///
/// The bias may wander (temperature): its variance grows by `driftSigma²`
/// per `driftTime`. Each kind of measurement's noise is set so that, fed
/// without pause, the bias's standard deviation settles at `restSigma` or
/// `motionSigma`: W = p²/V + p, where p is that variance and V the growth per
/// step, is the measurement noise whose steady state is p (from the Riccati
/// equation of a scalar random walk). Since V and W both follow the step,
/// the filter learns at the same pace at any sample rate.
struct GyroBiasEstimator: Sendable {
    let noise: GyroBiasNoise
    /// The largest bias believed (rad/s, per axis).
    let maxBias: Double
    private(set) var bias = Vector3.zero
    /// The estimate's covariance, (rad/s)².
    private(set) var covariance: Matrix3

    init(noise: GyroBiasNoise, maxBias: Double) {
        self.noise = noise
        self.maxBias = maxBias
        covariance = .diagonal(Vector3(1, 1, 1) * (noise.initialSigma * noise.initialSigma))
    }

    /// The largest standard deviation of the three axes, rad/s.
    var sigma: Double {
        let d = covariance.diagonal
        return max(d.x, d.y, d.z).squareRoot()
    }

    /// The standard deviation of the bias about earth's level axes, rad/s,
    /// for a board whose attitude has rotation matrix `r` (board → earth):
    /// the part of the bias that tilts the estimate. Its vertical part only
    /// turns the heading, so a board that has only ever turned about level
    /// axes has a well known tilt drift long before a well known bias.
    func levelSigma(seenThrough r: Matrix3) -> Double {
        max(r.r0.dot(covariance * r.r0), r.r1.dot(covariance * r.r1)).squareRoot()
    }

    /// Starts from a bias learnt before, with the uncertainty of a remembered one.
    mutating func remember(_ bias: Vector3) {
        self.bias = clamped(bias)
        let p = noise.rememberedSigma * noise.rememberedSigma
        covariance = .diagonal(Vector3(p, p, p))
    }

    /// Lets the bias wander for `dt` seconds: its variance grows, up to where it started.
    mutating func predict(dt: Double) {
        let growth = drift(dt)
        let ceiling = noise.initialSigma * noise.initialSigma
        if covariance.r0.x < ceiling { covariance.r0.x += growth }
        if covariance.r1.y < ceiling { covariance.r1.y += growth }
        if covariance.r2.z < ceiling { covariance.r2.z += growth }
    }

    /// At rest: the gyroscope's mean reading measures the bias directly.
    mutating func update(restingRate: Vector3, dt: Double) {
        let w = weight(settlingAt: noise.restSigma, dt: dt)
        correct(innovation: restingRate - bias, observation: .identity, noise: Vector3(w, w, w))
    }

    /// In motion: `innovation` is what the correction says of the bias
    /// through `observation` (board → earth, its rows earth's x, y and z).
    mutating func update(innovation: Vector3, observation: Matrix3, dt: Double) {
        let w = weight(settlingAt: noise.motionSigma, dt: dt)
        correct(innovation: innovation, observation: observation, noise: Vector3(w, w, w * noise.verticalWeakness))
    }

    private func drift(_ dt: Double) -> Double { noise.driftSigma * noise.driftSigma * dt / noise.driftTime }

    /// W = p²/V + p: the measurement noise whose steady state is p = sigma².
    private func weight(settlingAt sigma: Double, dt: Double) -> Double {
        let p = sigma * sigma
        return p * p / max(drift(dt), 1e-30) + p
    }

    private mutating func correct(innovation: Vector3, observation h: Matrix3, noise w: Vector3) {
        // A measurement far outside any believable bias is a disturbance, not information.
        let e = clamped(innovation)
        let ph = covariance * h.transposed
        guard let s = (h * ph + .diagonal(w)).inverse else { return }
        let gain = ph * s
        bias = clamped(bias + gain * e)
        covariance = covariance - gain * (h * covariance)
    }

    private func clamped(_ v: Vector3) -> Vector3 {
        func c(_ x: Double) -> Double { x.isFinite ? min(max(x, -maxBias), maxBias) : 0 }
        return Vector3(c(v.x), c(v.y), c(v.z))
    }
}

/// How `GyroBiasEstimator` believes the bias behaves and its measurements (see there).
public struct GyroBiasNoise: Sendable, Equatable {
    /// The bias's standard deviation when nothing is known of it, rad/s.
    public var initialSigma = 2 * Double.pi / 180
    /// The same for a bias remembered from an earlier run.
    public var rememberedSigma = 0.5 * Double.pi / 180
    /// How far the bias may wander, and over what time.
    public var driftSigma = 0.1 * Double.pi / 180
    public var driftTime = 100.0
    /// Where the bias's standard deviation settles when measured without pause.
    public var restSigma = 0.03 * Double.pi / 180
    public var motionSigma = 0.1 * Double.pi / 180
    /// How much weaker the pull of the vertical part to zero is than a motion measurement.
    public var verticalWeakness = 1e4
    public init() {}
}
