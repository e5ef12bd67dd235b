// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Collects magnetometer readings while the player turns the board through a
/// figure of eight, and says how far the directions are covered and what
/// calibration they give, with CoreMotion's accuracy levels.
///
/// Readings are kept at most one per `spacing` (a slow turn would otherwise
/// fill the store with one direction) in storage reserved at the start, so
/// `add` never allocates. Coverage is the share of 26 directions (the faces,
/// edges and corners of a cube about the fitted centre) that have a reading
/// near them: an ellipsoid fit on half the directions is a guess about the
/// other half.
public struct CompassCalibrator: Sendable {
    /// The most readings kept; the oldest are overwritten beyond it.
    public let capacity: Int
    /// The least time between two kept readings, ns.
    public let spacing: Int64
    private var readings: [Vector3]
    private var next = 0
    private var lastKept: Int64?

    public init(capacity: Int = 4096, spacing: Int64 = 20_000_000) {
        self.capacity = max(capacity, 20)
        self.spacing = spacing
        readings = []
        readings.reserveCapacity(self.capacity)
    }

    /// How many readings are kept.
    public var count: Int { readings.count }

    /// Forgets every reading (the player starts again).
    public mutating func removeAll() {
        readings.removeAll(keepingCapacity: true)
        next = 0
        lastKept = nil
    }

    /// Keeps the reading `m` (µT) taken at `time` (ns) unless one was kept less than `spacing` before.
    public mutating func add(_ m: Vector3, at time: Int64) {
        guard m.x.isFinite, m.y.isFinite, m.z.isFinite else { return }
        if let last = lastKept, time - last < spacing, time >= last { return }
        lastKept = time
        if readings.count < capacity {
            readings.append(m)
        } else {
            readings[next] = m
            next = (next + 1) % capacity
        }
    }

    /// What the readings so far give.
    public struct Result: Sendable, Equatable {
        /// The calibration, its accuracy set from `coverage` and `residual`.
        public var calibration: MagnetometerCalibration
        /// The share of the 26 directions covered, 0...1.
        public var coverage: Double
        /// The field's strength after calibration, µT.
        public var strength: Double
        /// The readings' RMS distance from the fitted ellipsoid, as a fraction of `strength`.
        public var residual: Double
        /// Which of the 26 directions are covered: bit i for `CompassCalibrator.directions[i]`.
        public var covered: UInt32

        /// Whether direction `i` is covered.
        public func isCovered(_ i: Int) -> Bool { covered & (1 << UInt32(i)) != 0 }
    }

    /// The fit and its coverage; nil while the readings fit no ellipsoid
    /// (too few, or all in one plane: the board turned about one axis).
    public func result() -> Result? {
        var fit = EllipsoidFit()
        for m in readings { fit.add(m) }
        guard let solved = fit.solve(), solved.strength.isFinite, solved.strength > 0 else { return nil }
        var covered: UInt32 = 0
        for m in readings {
            let d = solved.calibration.apply(m)
            let length = d.length
            guard length > 0 else { continue }
            // Near a direction: within about 35° of it (the bins' spacing is 45° or less).
            for i in Self.directions.indices where d.dot(Self.directions[i]) >= 0.82 * length { covered |= 1 << UInt32(i) }
        }
        let coverage = Double(covered.nonzeroBitCount) / Double(Self.directions.count)
        var calibration = solved.calibration
        calibration.accuracy = Self.accuracy(coverage: coverage, residual: solved.residual)
        return Result(calibration: calibration, coverage: coverage, strength: solved.strength,
                      residual: solved.residual, covered: covered)
    }

    /// CoreMotion's four levels from a fit's coverage and residual: a fit on
    /// few directions, or one the readings miss by more than a hobby
    /// magnetometer's noise, is not worth much however good the other is.
    public static func accuracy(coverage: Double, residual: Double) -> MagneticFieldAccuracy {
        if coverage >= 0.8 && residual <= 0.015 { return .high }
        if coverage >= 0.6 && residual <= 0.03 { return .medium }
        if coverage >= 0.4 && residual <= 0.06 { return .low }
        return .uncalibrated
    }

    /// The 26 unit directions from a cube's centre to its faces, edges and corners.
    public static let directions: [Vector3] = {
        var out: [Vector3] = []
        for x in -1 ... 1 {
            for y in -1 ... 1 {
                for z in -1 ... 1 where x != 0 || y != 0 || z != 0 {
                    let v = Vector3(Double(x), Double(y), Double(z))
                    out.append(v / v.length)
                }
            }
        }
        return out
    }()
}
