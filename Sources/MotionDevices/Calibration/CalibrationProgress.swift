// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// Where a calibration asked for stands, from the still stretches of a
/// live sensor found so far: whether that is enough, its outcome, and what
/// to ask of the player next. The headless `calibrate` prints the prompts;
/// the calibration screens show them.
public struct CalibrationProgress: Sendable {
    public let kind: OnDemandCalibration
    public let delivery: OnDemandCalibration.Delivery
    /// Finished still stretches (delivered samples), oldest first.
    public let stretches: [StillStretch]
    /// The stretch under way; nil while the board moves.
    public let ongoing: StillStretch?

    public init(_ kind: OnDemandCalibration, delivery: OnDemandCalibration.Delivery, stretches: [StillStretch],
                ongoing: StillStretch?) {
        self.kind = kind
        self.delivery = delivery
        self.stretches = stretches
        self.ongoing = ongoing
    }

    /// Every stretch, the one under way last once it has lasted as long as a finished one must.
    public var all: [StillStretch] {
        stretches + (ongoing.flatMap { $0.duration >= StillStretchFinder.defaultMinimumDuration ? [$0] : nil } ?? [])
    }

    /// The stretches as the calibration measures them (the chip's axes for the accelerometer and orientation).
    private var measured: [StillStretch] { all.compactMap { kind.measured($0, delivery: delivery) } }

    /// Whether what was found is all the calibration needs: the gyroscope,
    /// once a stillness has lasted its measuring time; the accelerometer,
    /// six faces; the orientation, two poses.
    public var isComplete: Bool {
        switch kind {
        case .gyroscope: ongoing.map { $0.hasRotation && $0.duration >= GyroscopeCalibration.measuringTime } ?? false
            || stretches.contains { $0.hasRotation && $0.duration >= GyroscopeCalibration.measuringTime }
        case .accelerometer: facesMissing.isEmpty && kind.impossible(with: delivery) == nil
        case .orientation: OrientationFit.hasBothPoses(measured)
        }
    }

    /// The outcome of what was found, the stretch under way included.
    public var outcome: Result<OnDemandCalibration.Outcome, CalibrationRefusal> { kind.outcome(all, delivery: delivery) }

    /// The faces held so far (accelerometer), in `AccelerometerFit.Face.allCases`' order.
    public var facesHeld: [AccelerometerFit.Face] {
        let missing = Set(facesMissing)
        return AccelerometerFit.Face.allCases.filter { !missing.contains($0) }
    }

    /// The faces still to hold (accelerometer).
    public var facesMissing: [AccelerometerFit.Face] {
        AccelerometerFit.Face.missing(in: measured.map(\.meanAcceleration))
    }

    /// Distinct poses held so far (orientation).
    public var poses: Int { OrientationFit.poseCount(measured) }
    /// Whether the flat pose and one tipped far enough are held (orientation).
    public var hasBothPoses: Bool { OrientationFit.hasBothPoses(measured) }

    /// What to ask of the player now.
    public var prompt: String {
        switch kind {
        case .gyroscope:
            if let still = ongoing, still.hasRotation {
                return "still: measuring (\(Int(still.duration)) of \(Int(GyroscopeCalibration.measuringTime)) s)"
            }
            return "put the board down on something firm and keep it still"
        case .accelerometer:
            if let refusal = kind.impossible(with: delivery) { return "nothing to calibrate: \(refusal)" }
            if ongoing != nil { return "holding still: keep it there" }
            return "rest the board still on each face in turn; still to do: " + facesMissing.map(name(of:)).joined(separator: ", ")
        case .orientation:
            let finished = OrientationFit.poseCount(stretches.compactMap { kind.measured($0, delivery: delivery) })
            switch (finished, ongoing != nil) {
            case (0, false): return "lay the board flat, face up, and keep it still"
            case (0, true): return "flat: keep it there"
            case (_, true) where OrientationFit.hasBothPoses(measured): return "tipped: keep it there"
            default: return "now tip the right edge down, about 30°, and keep it still"
            }
        }
    }

    /// A face as the player sees it on the board: the chip axis it puts up,
    /// turned by the mount in force ("face up", "left edge up"), or the
    /// chip's axis when the mount is not square.
    public func name(of face: AccelerometerFit.Face) -> String {
        let axis = delivery.mount.column(face.axis) * (face.up ? 1.0 : -1.0)
        let names = [(Vector3(0, 0, 1), "face up"), (Vector3(0, 0, -1), "face down"), (Vector3(1, 0, 0), "right edge up"),
                     (Vector3(-1, 0, 0), "left edge up"), (Vector3(0, 1, 0), "top edge up"), (Vector3(0, -1, 0), "bottom edge up")]
        return names.first { $0.0.dot(axis) > 0.9 }?.1 ?? "chip \(face)"
    }
}
