// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// The board's axes found from two poses, without root: the mount matrix
/// that takes the sensor chip's axes to the board's.
///
/// Lying flat, face up, the accelerometer reads straight up: that reading,
/// in the chip's axes, is the board's +z. Then the right edge is tipped
/// down (the board turned about its own y axis): the reading leans
/// towards the raised left edge, so what of it is not along +z points
/// along the board's −x. +y completes the right-handed frame (z × x).
///
/// A mount that is square to the chip's axes (the usual: a chip soldered
/// flat, turned by quarter turns or upside down) comes out as exactly its
/// signed permutation, whatever small angles the two poses were held at;
/// any other is kept as the rotation measured.
public enum OrientationFit {
    /// The right edge must go down at least this far, for the second pose to say which way x points, rad.
    public static let smallestTip = 15 * Double.pi / 180
    /// Rows within this of a chip axis snap to it, rad.
    public static let snapAngle = 20 * Double.pi / 180
    /// Stillnesses pointing within this of each other are one pose to the
    /// player (a flat pose settled twice is still the flat pose), rad.
    static let distinctPose = 5 * Double.pi / 180

    /// Why no orientation came out, in words a player can act on.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Fewer than two still poses.
        case missingPose(flatFound: Bool)
        /// The second pose is not tipped far enough from the first (its angle, rad).
        case tooLittleTip(Double)
        case noReading

        /// Said with a missing pose: a recording still for a second or so
        /// somewhere, or a gyroscope calibration's "the longest stillness
        /// was 1.2 s" beside it, reads otherwise as if a pose were there.
        static var whatAPoseNeeds: String {
            " (a pose is the board held still for \(Int(StillStretchFinder.defaultMinimumDuration)) s or more, "
                + "gravity steady within \(Int((StillnessThresholds().maximumTilt * 180 / .pi).rounded()))°; the two \(Int((smallestTip * 180 / .pi).rounded()))° or more apart)"
        }

        public var description: String {
            switch self {
            case .missingPose(let flatFound):
                (flatFound
                    ? "only one still pose: after lying flat, tip the right edge down (about 30°) and hold it still for 2 s"
                    : "no still pose: lay the board flat, face up, and hold it still for 2 s, then tip the right edge down and hold it")
                    + Self.whatAPoseNeeds
            case .tooLittleTip(let angle):
                "the right edge went down only \(Int((angle * 180 / .pi).rounded()))°: tip it at least "
                    + "\(Int((smallestTip * 180 / .pi).rounded()))° (30° or more is best) and hold it still"
            case .noReading:
                "the poses held no accelerometer reading"
            }
        }
    }

    /// The mount matrix from the chip-axis readings lying flat and with the right edge down.
    public static func fit(flat: Vector3, rightEdgeDown: Vector3) -> Result<MountMatrix, Refusal> {
        guard flat.length > 0, rightEdgeDown.length > 0 else { return .failure(.noReading) }
        let z = flat / flat.length
        let leaning = rightEdgeDown - z * rightEdgeDown.dot(z)
        let tip = atan2(leaning.length, rightEdgeDown.dot(z))
        guard tip >= smallestTip else { return .failure(.tooLittleTip(tip)) }
        let x = (.zero - leaning) / leaning.length
        let y = z.cross(x)
        let measured = MountMatrix(x, y, z)
        return .success(measured.snappedToAxes(within: snapAngle) ?? measured)
    }

    /// How many distinct poses the stretches hold (stretches pointing within 5° of each other are one).
    public static func poseCount(_ stretches: [StillStretch]) -> Int {
        Pose.merged(stretches.filter { $0.accelerationCount > 0 }, within: distinctPose).count
    }

    /// The mount matrix from still stretches in the chip's axes: the first is
    /// flat, and of the poses after it the one tipped furthest from it is the
    /// right edge down (a pause on the way down is no pose to fit).
    public static func fit(_ stretches: [StillStretch]) -> Result<MountMatrix, Refusal> {
        let poses = Pose.merged(stretches.filter { $0.accelerationCount > 0 }, within: distinctPose)
        guard let flat = poses.first else { return .failure(.missingPose(flatFound: false)) }
        guard let tipped = furthest(from: flat.mean, among: poses.dropFirst().map(\.mean)) else {
            return .failure(.missingPose(flatFound: true))
        }
        return fit(flat: flat.mean, rightEdgeDown: tipped)
    }

    /// Whether the stretches hold a flat pose and one tipped at least `smallestTip` from it.
    public static func hasBothPoses(_ stretches: [StillStretch]) -> Bool {
        let poses = Pose.merged(stretches.filter { $0.accelerationCount > 0 }, within: distinctPose)
        guard let flat = poses.first, let tipped = furthest(from: flat.mean, among: poses.dropFirst().map(\.mean)) else { return false }
        return angle(flat.mean, tipped) >= smallestTip
    }

    private static func furthest(from flat: Vector3, among readings: [Vector3]) -> Vector3? {
        readings.max { angle(flat, $0) < angle(flat, $1) }
    }

    private static func angle(_ a: Vector3, _ b: Vector3) -> Double {
        let d = a.length * b.length
        return d > 0 ? acos(min(1, max(-1, a.dot(b) / d))) : 0
    }
}

extension MountMatrix {
    /// The signed permutation nearest this rotation, when every row is
    /// within `angle` of a chip axis and no two rows take the same one; nil otherwise.
    public func snappedToAxes(within angle: Double) -> MountMatrix? {
        var used = Set<Int>()
        var snapped: [Vector3] = []
        for row in [rows.0, rows.1, rows.2] {
            let c = [row.x, row.y, row.z]
            guard let axis = (0 ..< 3).max(by: { abs(c[$0]) < abs(c[$1]) }), row.length > 0,
                  abs(c[axis]) >= cos(angle) * row.length, used.insert(axis).inserted else { return nil }
            var unit = [0.0, 0.0, 0.0]
            unit[axis] = c[axis] > 0 ? 1 : -1
            snapped.append(Vector3(unit[0], unit[1], unit[2]))
        }
        return MountMatrix(snapped[0], snapped[1], snapped[2])
    }

    /// "0, -1, 0; 1, 0, 0; 0, 0, 1" with at most four decimals: udev's
    /// `ACCEL_MOUNT_MATRIX` and `calibrate --orientation`'s form.
    public var propertyText: String {
        func f(_ v: Double) -> String {
            let r = (v * 10_000).rounded() / 10_000
            return r == r.rounded() ? String(Int(r)) : MotionSampleText.decimal(r, digits: 4).trimmingTrailingZeros
        }
        func row(_ v: Vector3) -> String { "\(f(v.x)), \(f(v.y)), \(f(v.z))" }
        return "\(row(rows.0)); \(row(rows.1)); \(row(rows.2))"
    }

    /// `orientation: a, b, c; d, e, f; g, h, i`, as `calibrate --orientation --headless` prints it.
    public var orientationLine: String { "orientation: " + propertyText }
}

extension String {
    /// "0.5000" → "0.5": the decimals a number does not need.
    var trimmingTrailingZeros: String {
        guard contains(".") else { return self }
        var s = Substring(self)
        while s.last == "0" { s.removeLast() }
        if s.last == "." { s.removeLast() }
        return String(s)
    }
}
