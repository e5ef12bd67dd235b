// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The six-position calibration of an accelerometer: the board held still
/// on each face (each chip axis up, then down), and the bias and scale
/// found that make every pose read exactly 1 g.
///
/// The fit minimises Σ(|T·(aᵢ − b)| − g)² over the poses' mean readings aᵢ
/// (Levenberg–Marquardt), T diagonal: six unknowns, which the six faces
/// fix. It starts from the min/max answer (half the sum and half the
/// difference of each axis's two faces, what RTIMULib does), which is
/// right only for faces held exactly square: the norm-based fit does not
/// care how square a face was held, since a pose's whole reading, not one
/// axis of it, has to come out 1 g long. With at least 11 distinct poses
/// it also fits T symmetric (cross-axis terms) and keeps that when the
/// poses support it (by AICc: the three more unknowns must pay for
/// themselves).
public struct AccelerometerFit: Sendable, Equatable {
    public var calibration: AccelerometerCalibration
    /// RMS over every reading of how far its calibrated length is from 1 g
    /// (the fit's misfit and the sensor's noise as held), m/s².
    public var residual: Double
    /// Distinct poses the fit used.
    public var poses: Int

    public init(calibration: AccelerometerCalibration, residual: Double, poses: Int) {
        self.calibration = calibration
        self.residual = residual
        self.poses = poses
    }

    /// Each axis's scale may be this far from 1.
    public static let largestScaleError = 0.1
    /// A bias beyond this is no offset but a broken or saturated chip, m/s² (half a g).
    public static let largestBias = 0.5 * standardGravity
    /// A residual beyond this is a board that moved or a face held in the hand, m/s².
    public static let largestResidual = 0.2
    /// Two still stretches whose readings point within this of each other
    /// are one pose to the fit, rad: a stillness broken by a jolt, the board
    /// not moved. No wider: a mean of readings a little apart is shorter
    /// than either (by 1 − cos(θ/2), 0.1 % at 5°, a misfit of 0.009 m/s²),
    /// and on IMU-TK's real recording, where the board went back to its
    /// poses by hand a degree or two off, merging at 5° left an error half
    /// as large again at the poses kept out of the fit (0.0020 m/s² RMS
    /// against 0.0013).
    static let samePose = 0.5 * Double.pi / 180

    /// One of the six faces: a chip axis pointing up.
    public struct Face: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// 0, 1, 2: x, y, z.
        public let axis: Int
        public let up: Bool

        public static let allCases = [0, 1, 2].flatMap { axis in [Face(axis: axis, up: true), Face(axis: axis, up: false)] }

        /// "+x up", "−z up": the axis, of the chip, the reading is along.
        public var description: String { (up ? "+" : "-") + ["x", "y", "z"][axis] + " up" }

        /// The face a reading (chip axes) is held on: its largest axis within
        /// 30° of the reading, or nil when it lies between faces.
        public init?(of reading: Vector3) {
            let c = [reading.x, reading.y, reading.z]
            let length = reading.length
            guard length > 0, let axis = (0 ..< 3).max(by: { abs(c[$0]) < abs(c[$1]) }),
                  abs(c[axis]) >= cos(30 * Double.pi / 180) * length else { return nil }
            self.init(axis: axis, up: c[axis] > 0)
        }

        public init(axis: Int, up: Bool) {
            self.axis = axis
            self.up = up
        }

        /// The faces no reading was held on. A bias of up to half a g
        /// turns a raw reading by up to 30°, so the readings are judged
        /// about the middle of each axis's highest and lowest (its bias,
        /// roughly) wherever that axis has readings both ways, so that a
        /// face not held does not hide the others.
        public static func missing(in readings: [Vector3]) -> [Face] {
            let rough = Set(readings.compactMap { Face(largestAxisOf: $0) })
            func middle(_ axis: Int) -> Double {
                guard rough.contains(Face(axis: axis, up: true)), rough.contains(Face(axis: axis, up: false)) else { return 0 }
                let values = readings.map { [$0.x, $0.y, $0.z][axis] }
                return (values.max()! + values.min()!) / 2
            }
            let centre = Vector3(middle(0), middle(1), middle(2))
            let held = Set(readings.compactMap { Face(of: $0 - centre) })
            return allCases.filter { !held.contains($0) }
        }

        /// The face of a reading's largest axis, however far between faces it lies.
        init?(largestAxisOf reading: Vector3) {
            let c = [reading.x, reading.y, reading.z]
            guard reading.length > 0, let axis = (0 ..< 3).max(by: { abs(c[$0]) < abs(c[$1]) }) else { return nil }
            self.init(axis: axis, up: c[axis] > 0)
        }
    }

    /// Why a fit was refused, in words a player can act on.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case missingFaces([Face])
        case scaleOff(axis: Int, scale: Double)
        case biasTooLarge(axis: Int, bias: Double)
        case crossAxisTooLarge(Double)
        case residualTooLarge(Double)
        case noFit

        public var description: String {
            let names = ["x", "y", "z"]
            switch self {
            case .missingFaces(let faces):
                return "not every face was held still: missing \(faces.map(\.description).joined(separator: ", ")) "
                    + "(hold the board still for 2 s on each face: each axis up, then down)"
            case .scaleOff(let axis, let scale):
                return "the \(names[axis]) axis's scale came out \(MotionSampleText.decimal(scale, digits: 3)), more than "
                    + "\(Int(largestScaleError * 100)) % off: a face was not held square, or the sensor's range is set wrong"
            case .biasTooLarge(let axis, let bias):
                return "the \(names[axis]) axis's bias came out \(MotionSampleText.decimal(bias, digits: 2)) m/s², more than "
                    + "half a g: the sensor is damaged or saturating"
            case .crossAxisTooLarge(let t):
                return "a cross-axis term came out \(MotionSampleText.decimal(t * 100)) %, more than "
                    + "\(Int(largestScaleError * 100)) %: the poses do not pin the axes down; hold each face square"
            case .residualTooLarge(let r):
                return "the poses disagree (residual \(MotionSampleText.decimal(r, digits: 3)) m/s², at most "
                    + "\(largestResidual) allowed): the board moved, or was held in the hand; rest it on a firm surface"
            case .noFit:
                return "no bias and scale fit these poses: hold each face still, square to the table"
            }
        }
    }

    /// The calibration from still stretches of readings in the chip's axes.
    public static func fit(_ stretches: [StillStretch], gravity: Double = standardGravity) -> Result<Self, Refusal> {
        let poses = Pose.merged(stretches.filter { $0.accelerationCount > 0 }, within: samePose)
        let missing = Face.missing(in: poses.map(\.mean))
        guard missing.isEmpty else { return .failure(.missingFaces(missing)) }
        guard var best = Solver(poses: poses, gravity: gravity, crossAxis: false).solve() else { return .failure(.noFit) }
        if poses.count >= 11, let full = Solver(poses: poses, gravity: gravity, crossAxis: true).solve(),
           full.aicc(poses.count) < best.aicc(poses.count) {
            best = full
        }
        let calibration = best.calibration
        let scale = calibration.scale
        for axis in 0 ..< 3 {
            let s = [scale.x, scale.y, scale.z][axis], b = [calibration.bias.x, calibration.bias.y, calibration.bias.z][axis]
            if abs(s - 1) > largestScaleError { return .failure(.scaleOff(axis: axis, scale: s)) }
            if abs(b) > largestBias { return .failure(.biasTooLarge(axis: axis, bias: b)) }
        }
        let m = calibration.matrix
        let crossAxis = max(abs(m.0.y), abs(m.0.z), abs(m.1.z))
        if crossAxis > largestScaleError { return .failure(.crossAxisTooLarge(crossAxis)) }
        let residual = Self.residual(calibration, poses, gravity)
        guard residual <= largestResidual else { return .failure(.residualTooLarge(residual)) }
        return .success(AccelerometerFit(calibration: calibration, residual: residual, poses: poses.count))
    }

    /// √(Σ nᵢ·(misfitᵢ² + σᵢ²) / Σ nᵢ): σᵢ² the variance of a reading's
    /// calibrated length at pose i, from the spread of its readings per axis.
    static func residual(_ c: AccelerometerCalibration, _ poses: [Pose], _ gravity: Double) -> Double {
        var sum = 0.0, count = 0.0
        for pose in poses {
            let calibrated = c.apply(pose.mean)
            let misfit = calibrated.length - gravity
            // δ|c| = ĉ·T·δa: the reading's spread seen along the calibrated direction.
            let direction = calibrated / max(calibrated.length, 1e-9)
            let m = c.matrix
            let along = Vector3(Vector3(m.0.x, m.1.x, m.2.x).dot(direction), Vector3(m.0.y, m.1.y, m.2.y).dot(direction),
                                Vector3(m.0.z, m.1.z, m.2.z).dot(direction))
            let s = pose.spread
            let variance = along.x * along.x * s.x * s.x + along.y * along.y * s.y * s.y + along.z * along.z * s.z * s.z
            let n = Double(pose.count)
            sum += n * (misfit * misfit + variance)
            count += n
        }
        return count > 0 ? (sum / count).squareRoot() : 0
    }

    /// `accelerometer bias: x y z m/s²; scale: x y z; residual: r m/s²`, as `calibrate --accelerometer --headless` prints it.
    public var line: String {
        let b = calibration.bias, s = calibration.scale
        func f(_ v: Double, _ d: Int) -> String { MotionSampleText.decimal(v, digits: d) }
        return "accelerometer bias: \(f(b.x, 4)) \(f(b.y, 4)) \(f(b.z, 4)) m/s²; scale: \(f(s.x, 5)) \(f(s.y, 5)) \(f(s.z, 5)); "
            + "residual: \(f(residual, 4)) m/s²"
    }
}

/// A pose: the still stretches whose readings point the same way, merged.
struct Pose: Sendable {
    var mean: Vector3
    var spread: Vector3
    var count: Int

    /// The stretches, those pointing within `angle` (rad) of an earlier pose merged into it.
    static func merged(_ stretches: [StillStretch], within angle: Double) -> [Pose] {
        var poses: [Pose] = []
        let close = cos(angle)
        for s in stretches {
            let pose = Pose(mean: s.meanAcceleration, spread: s.accelerationSpread, count: s.accelerationCount)
            if let i = poses.firstIndex(where: { $0.mean.dot(pose.mean) >= close * $0.mean.length * pose.mean.length }) {
                let a = poses[i], n = Double(a.count + pose.count)
                let wa = Double(a.count) / n, wb = Double(pose.count) / n
                func rms(_ x: Double, _ y: Double) -> Double { (wa * x * x + wb * y * y).squareRoot() }
                poses[i] = Pose(mean: a.mean * wa + pose.mean * wb,
                                spread: Vector3(rms(a.spread.x, pose.spread.x), rms(a.spread.y, pose.spread.y), rms(a.spread.z, pose.spread.z)),
                                count: a.count + pose.count)
            } else {
                poses.append(pose)
            }
        }
        return poses
    }
}

/// Levenberg–Marquardt on rᵢ = |T·(aᵢ − b)| − g. Unknowns: b (3), then T's
/// diagonal (3), then with cross-axis terms its upper triangle (xy, xz, yz).
private struct Solver {
    let poses: [Pose]
    let gravity: Double
    let size: Int

    init(poses: [Pose], gravity: Double, crossAxis: Bool) {
        self.poses = poses
        self.gravity = gravity
        size = crossAxis ? 9 : 6
    }

    struct Answer {
        var calibration: AccelerometerCalibration
        /// Σ rᵢ².
        var squares: Double
        let unknowns: Int

        /// The corrected Akaike criterion for n poses: smaller is better.
        func aicc(_ n: Int) -> Double {
            let k = Double(unknowns), m = Double(n)
            guard m - k - 1 > 0 else { return .infinity }
            return m * log(max(squares, 1e-300) / m) + 2 * k + 2 * k * (k + 1) / (m - k - 1)
        }
    }

    static func calibration(_ p: InlineArray<9, Double>, size: Int) -> AccelerometerCalibration {
        let cross = size == 9
        let xy = cross ? p[6] : 0, xz = cross ? p[7] : 0, yz = cross ? p[8] : 0
        return AccelerometerCalibration(bias: Vector3(p[0], p[1], p[2]),
                                        matrix: (Vector3(p[3], xy, xz), Vector3(xy, p[4], yz), Vector3(xz, yz, p[5])))
    }

    func squares(_ p: InlineArray<9, Double>) -> Double {
        let c = Self.calibration(p, size: size)
        return poses.reduce(0) { sum, pose in
            let r = c.apply(pose.mean).length - gravity
            return sum + r * r
        }
    }

    /// The min/max start: each axis's two faces give its bias and scale.
    func start() -> InlineArray<9, Double> {
        var p = InlineArray<9, Double>(repeating: 0)
        for axis in 0 ..< 3 {
            let values = poses.map { [$0.mean.x, $0.mean.y, $0.mean.z][axis] }
            let high = values.max() ?? gravity, low = values.min() ?? -gravity
            p[axis] = (high + low) / 2
            p[3 + axis] = high > low ? 2 * gravity / (high - low) : 1
        }
        return p
    }

    func solve() -> Answer? {
        var p = start()
        var current = squares(p)
        var damping = 1e-3
        for _ in 0 ..< 100 {
            // Jacobian by central differences, folded straight into JᵀJ and Jᵀr.
            var normal = InlineArray<81, Double>(repeating: 0)
            var gradient = InlineArray<9, Double>(repeating: 0)
            let c = Self.calibration(p, size: size)
            for pose in poses {
                let r = c.apply(pose.mean).length - gravity
                var row = InlineArray<9, Double>(repeating: 0)
                for j in 0 ..< size {
                    let h = 1e-6 * max(1, abs(p[j]))
                    var up = p, down = p
                    up[j] += h
                    down[j] -= h
                    row[j] = (Self.calibration(up, size: size).apply(pose.mean).length
                        - Self.calibration(down, size: size).apply(pose.mean).length) / (2 * h)
                }
                for i in 0 ..< size {
                    gradient[i] -= row[i] * r
                    for j in 0 ..< size { normal[9 * i + j] += row[i] * row[j] }
                }
            }
            var improved = false
            while damping < 1e10 {
                var damped = normal
                for i in 0 ..< size { damped[10 * i] *= 1 + damping }
                guard let step = SmallLinearSystem.solve(damped, gradient, size: size) else {
                    damping *= 10
                    continue
                }
                var trial = p
                for i in 0 ..< size { trial[i] += step[i] }
                let s = squares(trial)
                if s.isFinite && s <= current {
                    let gain = current - s
                    p = trial
                    current = s
                    damping = max(damping / 10, 1e-12)
                    improved = gain > 1e-18 * max(1, current)
                    break
                }
                damping *= 10
            }
            if !improved { break }
        }
        guard current.isFinite else { return nil }
        return Answer(calibration: Self.calibration(p, size: size), squares: current, unknowns: size)
    }
}
