// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MotionCore

/// Recordings made with known errors, for the calibrations' tests: poses
/// held still with moves between them, the still readings carrying real
/// noise (a BROAD IMU lying still, its own mean taken out), and the errors
/// a test puts in (a gyroscope bias, an accelerometer's bias and scale, a
/// mounting), so the truth is known exactly.
public struct CalibrationRecording: Sendable {
    /// The sensor's errors: a reading is `accelerometer.undo(true force)`
    /// and `gyroBias + true rate`, in the chip's axes.
    public var accelerometer: AccelerometerCalibration
    public var gyroBias: Vector3
    /// Board = mount · chip: a pose given in the board's frame is read as mount⁻¹ · it.
    public var mount: MountMatrix
    public let rate: Double
    public private(set) var samples: [MotionSample] = []
    private let noise: RealNoise
    private var noiseIndex = 0

    /// - Parameter noiseWindow: the BROAD window whose still start lends its noise.
    public init(accelerometer: AccelerometerCalibration = .none, gyroBias: Vector3 = .zero, mount: MountMatrix = .identity,
                noiseWindow: String = "07_fast_rotation_B.broadwin") throws {
        self.accelerometer = accelerometer
        self.gyroBias = gyroBias
        self.mount = mount
        noise = try RealNoise(noiseWindow)
        rate = noise.rate
    }

    /// The specific force (up, 1 g) of the board at `pose` (board → earth), in the board's frame.
    public static func force(_ pose: Quaternion) -> Vector3 { pose.conjugate.rotate(Vector3(0, 0, standardGravity)) }

    private var time: Int64 { samples.last.map { $0.timestamp + Int64((1e9 / rate).rounded()) } ?? 0 }

    private func chip(_ board: Vector3) -> Vector3 { mount.inverse!.apply(board) }

    private func reading(force board: Vector3, rate boardRate: Vector3, noisy: Bool, at t: Int64) -> MotionSample {
        let n = noisy ? noise.samples[noiseIndex % noise.samples.count] : (Vector3.zero, Vector3.zero)
        let accel = accelerometer.undo(chip(board))! + n.0
        let gyro = chip(boardRate) + gyroBias + n.1
        return MotionSample(timestamp: t, acceleration: accel, rotationRate: gyro, fields: [.acceleration, .rotationRate])
    }

    /// Holds the board still at `pose` for `seconds`.
    public mutating func hold(_ pose: Quaternion, seconds: Double) {
        let force = Self.force(pose)
        for _ in 0 ..< Int(seconds * rate) {
            samples.append(reading(force: force, rate: .zero, noisy: true, at: time))
            noiseIndex += 1
        }
    }

    /// Turns the board from `from` to `to` at a steady rate over `seconds` (a move between poses).
    public mutating func turn(from: Quaternion, to: Quaternion, seconds: Double = 1) {
        let delta = from.conjugate * to
        let angle = 2 * atan2(Vector3(delta.x, delta.y, delta.z).length, delta.w)
        let axis = angle > 0 ? Vector3(delta.x, delta.y, delta.z) / Vector3(delta.x, delta.y, delta.z).length : Vector3(0, 0, 1)
        let steps = Int(seconds * rate)
        for i in 0 ..< steps {
            let f = Double(i) / Double(steps)
            let half = angle * f / 2
            let q = from * Quaternion(w: cos(half), x: axis.x * sin(half), y: axis.y * sin(half), z: axis.z * sin(half))
            samples.append(reading(force: Self.force(q), rate: axis * (angle / seconds), noisy: true, at: time))
            noiseIndex += 1
        }
    }

    /// Holds each pose for `seconds`, turning from one to the next in a second.
    public mutating func hold(each poses: [Quaternion], seconds: Double) {
        for (i, pose) in poses.enumerated() {
            if i > 0 { turn(from: poses[i - 1], to: pose) }
            hold(pose, seconds: seconds)
        }
    }

    /// The board turned by `degrees` about its own `axis` (board → earth).
    public static func pose(_ axis: Vector3, degrees: Double) -> Quaternion {
        let half = degrees * .pi / 360, a = axis / axis.length
        return Quaternion(w: cos(half), x: a.x * sin(half), y: a.y * sin(half), z: a.z * sin(half))
    }

    /// Lying flat, face up.
    public static let flat = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The six faces, each chip axis up then down (for an identity mount),
    /// each held 2–5° off square, as a board propped on a table by hand is.
    public static let sixFaces: [Quaternion] = [
        pose(Vector3(0.03, 1, 0.05), degrees: -86),  // +x up
        pose(Vector3(0.05, 1, -0.02), degrees: 93),  // -x up
        pose(Vector3(1, 0.04, 0.03), degrees: 87),  // +y up
        pose(Vector3(1, -0.05, 0.02), degrees: -92),  // -y up
        pose(Vector3(1, 0.5, 0), degrees: 3),  // +z up
        pose(Vector3(1, 0.2, 0), degrees: 176),  // -z up
    ]

    /// A recording of these samples with a header saying `identity`: what
    /// `tiltmaze record` would have written of such a sensor (its mount already applied).
    public func recording(identity: String?, device: String = "test IMU") -> Recording {
        let header = RecordingHeader(device: device, identity: identity, rate: rate, hasGyroscope: true, mount: .identity)
        return Recording(header: header, samples: samples)
    }
}

/// The noise of a real IMU lying still: the first seconds of a BROAD window
/// (before its movement phase), less their mean.
struct RealNoise: Sendable {
    let rate: Double
    /// (accelerometer, gyroscope) per sample, zero mean.
    let samples: [(Vector3, Vector3)]

    init(_ window: String) throws {
        let w = try BroadWindow(window)
        let still = Array(w.samples[..<(w.moving.firstIndex(of: true) ?? w.samples.count)])
        let n = Double(still.count)
        let accel = still.reduce(Vector3.zero) { $0 + $1.acceleration } / n
        let gyro = still.reduce(Vector3.zero) { $0 + $1.rotationRate } / n
        rate = w.rate
        samples = still.map { ($0.acceleration - accel, $0.rotationRate - gyro) }
    }
}
