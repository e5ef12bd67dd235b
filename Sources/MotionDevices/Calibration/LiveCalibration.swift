// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// One calibration asked for, fed a live sensor's samples as they come:
/// the still stretches found so far, whether that is enough, and what to
/// ask of the player next. The headless `calibrate` prints its prompts; a
/// calibration screen shows them.
public struct LiveCalibration: Sendable {
    public let kind: OnDemandCalibration
    public let delivery: OnDemandCalibration.Delivery
    public private(set) var finder = StillStretchFinder()
    /// Samples the delivery could not be undone for (a singular mount): none, in practice.
    public private(set) var unusable = 0

    public init(_ kind: OnDemandCalibration, delivery: OnDemandCalibration.Delivery) {
        self.kind = kind
        self.delivery = delivery
    }

    public mutating func add(_ sample: MotionSample) {
        guard let measured = kind.measured(sample, delivery: delivery) else {
            unusable += 1
            return
        }
        finder.add(measured)
    }

    /// Whether what was found is all the calibration needs.
    public var isComplete: Bool { kind.isComplete(finder.stretches, ongoing: finder.ongoing) }

    /// The outcome of what was found, the stretch under way included.
    public var outcome: Result<OnDemandCalibration.Outcome, CalibrationRefusal> {
        var done = finder
        done.finish()
        return kind.outcome(done.stretches)
    }

    /// The faces held so far (accelerometer), as the player names them.
    public var facesHeld: [String] {
        let missing = Set(AccelerometerFit.Face.missing(in: finder.stretches.map(\.meanAcceleration)))
        return AccelerometerFit.Face.allCases.filter { !missing.contains($0) }.map { name(of: $0) }
    }

    /// The faces still to hold (accelerometer), as the player names them.
    public var facesMissing: [String] {
        AccelerometerFit.Face.missing(in: finder.stretches.map(\.meanAcceleration)).map { name(of: $0) }
    }

    /// What to ask of the player now.
    public var prompt: String {
        switch kind {
        case .gyroscope:
            if let still = finder.ongoing, still.hasRotation {
                return "still: measuring (\(Int(still.duration)) of \(Int(GyroscopeCalibration.measuringTime)) s)"
            }
            return "put the board down on something firm and keep it still"
        case .accelerometer:
            let missing = facesMissing
            if finder.isStill { return "holding still: keep it there for a second" }
            return "hold the board still, resting on each face in turn; still to do: " + missing.joined(separator: ", ")
        case .orientation:
            switch OrientationFit.poseCount(finder.stretches) {
            case 0: return finder.isStill ? "flat: keep it there" : "lay the board flat, face up, and keep it still"
            default: return finder.isStill && OrientationFit.poseCount(finder.stretches + [finder.ongoing!]) > 1
                ? "tipped: keep it there" : "now tip the right edge down, about 30°, and keep it still"
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
