// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Learns, while the board turns, a magnetic offset that rides with the
/// board: a magnet in a case, a speaker, a steel screw near the chip (hard
/// iron). Such an offset is not a disturbance of the Earth's field but a
/// change of the sensor's zero, and rejecting it as a disturbance would
/// leave the heading on the gyroscope for as long as it stays.
///
/// Readings of a field that is the Earth's plus an offset fixed in the board
/// lie on a sphere about that offset, whatever way the board turns. The
/// tracker fits one, by linear least squares on |m|² = 2 m·c + k (centre
/// c, radius² k + |c|²), over the last `memory` seconds (kept as sums per
/// slot of a fixed window, so nothing is stored per reading), each time
/// the window has moved on by a slot.
/// A fit replaces the offset in use only when it can be believed:
///
/// - the readings spread in every direction (the smallest spread of
///   their covariance, `minimumSpread` of the radius): a turn about one
///   axis traces a circle, which many spheres fit;
/// - they lie on the sphere (`maximumResidual` of the radius, about the
///   noise of a hobby magnetometer): a magnet lying on the table beside a
///   board that moves about bends the field differently in each place, and
///   fits no sphere;
/// - the radius is an Earth's field (`fieldRange`);
/// - and they fit it clearly better (`minimumImprovement`, in RMS distance
///   from the sphere) than the best sphere about the offset in use: a board
///   calibrated well keeps its calibration rather than trade it for noise,
///   while an offset first taken from a window half before and half after
///   a magnet was attached is put right by the next one.
///
/// An offset that goes away (the magnet taken off) is dropped sooner than a
/// new fit could find it: the last 2 s of readings are compared with a
/// sphere about the calibrated zero (`returnHome`).
///
/// Measured on BROAD, whose trials 32–36 have a magnet attached to the IMU
/// for the first 40 s of their movement: fitted centres 27–58 µT from zero
/// with 0.8 µT residual, the noise of the sensor at rest.
struct HardIronTracker: Sendable {
    let parameters: HardIronParameters
    /// The offset in use, µT (board frame): subtracted from every reading.
    private(set) var offset = Vector3.zero
    /// How many times a fit has replaced the offset.
    private(set) var updates = 0
    /// The RMS distance of the readings from the believed fit's sphere, as a fraction of its radius.
    private(set) var fitResidual = 0.0
    /// The least-squares sums of the window, one slot per `blockTime`: a
    /// sliding window forgets an offset that has gone (the magnet taken off)
    /// completely, where exponential forgetting would keep a trace whose
    /// distance from the new sphere outweighs everything else in the fit.
    private var blocks = InlineArray<20, Sums>(repeating: Sums())
    private var block = 0
    private var filled = 0
    /// Seconds into the current block.
    private var blockAge = 0.0

    /// Σa·aᵀ for a = (2m, 1) (row by row), Σa·|m|², Σ|m|⁴ and the count.
    struct Sums: Sendable {
        var normal = SIMD16<Double>()
        var right = SIMD4<Double>()
        var squares = 0.0
        var count = 0.0

        /// The RMS algebraic residual |m|² − 2m·c − k of `x` = (c, k), µT²:
        /// about 2R times the distance of a reading from the sphere.
        func residual(_ x: SIMD4<Double>) -> Double {
            var quadratic = 0.0
            for i in 0 ..< 4 {
                for j in 0 ..< 4 { quadratic += x[i] * normal[4 * i + j] * x[j] }
            }
            return max((squares - 2 * (x * right).sum() + quadratic) / count, 0).squareRoot()
        }

        /// The same for the best sphere about `centre`.
        func residual(centredOn centre: Vector3) -> Double {
            let twiceSum = Vector3(normal[3], normal[7], normal[11])
            return residual(SIMD4(centre.x, centre.y, centre.z, (right[3] - centre.dot(twiceSum)) / count))
        }

        static func + (a: Sums, b: Sums) -> Sums {
            Sums(normal: a.normal + b.normal, right: a.right + b.right, squares: a.squares + b.squares,
                 count: a.count + b.count)
        }
    }

    init(parameters: HardIronParameters) {
        self.parameters = parameters
    }

    /// The length of one slot of the window, s.
    private var blockTime: Double { parameters.memory / Double(blocks.count) }

    /// Folds in a raw reading (µT) `dt` seconds after the one before and
    /// returns it with the offset taken out.
    mutating func add(_ m: Vector3, dt: Double) -> Vector3 {
        blockAge += dt
        if blockAge >= blockTime {
            blockAge = 0
            filled = min(filled + 1, blocks.count)
            if filled == blocks.count { solve() }
            if offset != .zero, filled >= parameters.homeSlots { returnHome() }
            block = (block + 1) % blocks.count
            blocks[block] = Sums()
        }
        let a = SIMD4(2 * m.x, 2 * m.y, 2 * m.z, 1)
        let y = m.dot(m)
        var outer = SIMD16<Double>()
        for i in 0 ..< 4 {
            for j in 0 ..< 4 { outer[4 * i + j] = a[i] * a[j] }
        }
        blocks[block].normal += outer
        blocks[block].right += a * y
        blocks[block].squares += y * y
        blocks[block].count += 1
        return m - offset
    }

    private mutating func solve() {
        let p = parameters
        var sums = Sums()
        for i in blocks.indices { sums = sums + blocks[i] }
        guard sums.count >= 10, let x = Self.solve(sums.normal, sums.right) else { return }
        let centre = Vector3(x[0], x[1], x[2])
        let radiusSquared = x[3] + centre.dot(centre)
        guard radiusSquared > 0 else { return }
        let radius = radiusSquared.squareRoot()
        guard p.fieldRange.contains(radius) else { return }
        let fitted = sums.residual(x) / (2 * radius)
        guard fitted <= p.maximumResidual * radius,
              sums.residual(centredOn: offset) / (2 * radius) > p.minimumImprovement * fitted else { return }
        // The readings' covariance, from the same sums: a = (2m, 1).
        let n = sums.count
        let normal = sums.normal
        let mean = Vector3(normal[3], normal[7], normal[11]) / (2 * n)
        let c = Matrix3(Vector3(normal[0], normal[1], normal[2]) / (4 * n),
                        Vector3(normal[4], normal[5], normal[6]) / (4 * n),
                        Vector3(normal[8], normal[9], normal[10]) / (4 * n))
            - Matrix3(mean * mean.x, mean * mean.y, mean * mean.z)
        guard c.smallestSymmetricEigenvalue >= (p.minimumSpread * radius) * (p.minimumSpread * radius) else { return }
        offset = centre
        fitResidual = fitted / radius
        updates += 1
    }

    /// Goes back to no offset (the calibrated zero) when the readings of the
    /// last `homeSlots` slots lie clearly closer to a sphere about it than to
    /// one about the offset in use: the magnet has been taken off. Unlike a
    /// new fit this needs neither the whole window nor a spread in every
    /// direction: both spheres' centres are known, so any turn that tells
    /// them apart will do, and a board that does not turn tells nothing
    /// (both fit a point), so nothing changes.
    private mutating func returnHome() {
        let p = parameters
        var sums = Sums()
        for k in 0 ..< p.homeSlots { sums = sums + blocks[(block - k + blocks.count) % blocks.count] }
        guard sums.count >= 10 else { return }
        let radius = (sums.right[3] / sums.count).squareRoot()
        guard p.fieldRange.contains(radius) else { return }
        let home = sums.residual(centredOn: .zero) / (2 * radius)
        guard home <= p.maximumResidual * radius,
              sums.residual(centredOn: offset) / (2 * radius) > p.minimumImprovement * home else { return }
        offset = .zero
        fitResidual = home / radius
        updates += 1
    }

    /// The solution of M·x = b (M 4×4, row by row) by Gaussian elimination
    /// with partial pivoting; nil when M is (nearly) singular.
    static func solve(_ m: SIMD16<Double>, _ b: SIMD4<Double>) -> SIMD4<Double>? {
        var a = m, r = b
        let scale = max(abs(m[0]), abs(m[5]), abs(m[10]), abs(m[15]), 1e-300)
        for column in 0 ..< 4 {
            var pivot = column
            for row in column + 1 ..< 4 where abs(a[4 * row + column]) > abs(a[4 * pivot + column]) { pivot = row }
            guard abs(a[4 * pivot + column]) > 1e-12 * scale else { return nil }
            if pivot != column {
                for j in 0 ..< 4 { a.swapAt(4 * pivot + j, 4 * column + j) }
                r.swapAt(pivot, column)
            }
            for row in column + 1 ..< 4 {
                let f = a[4 * row + column] / a[4 * column + column]
                for j in column ..< 4 { a[4 * row + j] -= f * a[4 * column + j] }
                r[row] -= f * r[column]
            }
        }
        var x = SIMD4<Double>()
        for row in (0 ..< 4).reversed() {
            var s = r[row]
            for j in row + 1 ..< 4 { s -= a[4 * row + j] * x[j] }
            x[row] = s / a[4 * row + row]
        }
        return x
    }
}

extension SIMD16 {
    fileprivate mutating func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}

extension SIMD4 {
    fileprivate mutating func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}

/// How `HardIronTracker` believes a fit (see there for why each).
public struct HardIronParameters: Sendable, Equatable {
    /// Whether the offset is learnt while the board moves at all. On BROAD
    /// it takes the mean heading RMS of the five trials with a magnet
    /// attached from 3.0° to 2.1°, and of all 30 from 1.51° to 1.33°; one
    /// trial gets a little worse, 0.85° to 0.93° (a magnet at 4 cm; see
    /// docs/performance.md).
    public var isEnabled = true
    /// How far back the fit looks, s; a fit is tried each 1/20 of it.
    public var memory = 10.0
    /// The smallest spread of the readings in any direction, as a fraction of the radius.
    public var minimumSpread = 0.25
    /// The largest RMS distance of the readings from the sphere, as a fraction of the radius.
    public var maximumResidual = 0.04
    /// How many times closer to the fitted sphere the readings must lie than
    /// to the best one about the offset in use.
    public var minimumImprovement = 1.5
    /// How many of the latest slots must lie clearly closer to a sphere about
    /// no offset than to one about the offset in use for the offset to be
    /// dropped (2 s at the default memory).
    public var homeSlots = 4
    /// Radii an Earth's field can have, µT (25–65 µT at the surface, with room for a sensor's scale error).
    public var fieldRange: ClosedRange<Double> = 15 ... 100
    public init() {}
}
