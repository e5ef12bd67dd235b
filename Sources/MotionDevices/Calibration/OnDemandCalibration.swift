// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// The calibrations a player asks for (`tiltmaze calibrate --gyroscope`,
/// `--accelerometer`, `--orientation`): what each needs of the samples,
/// what it found, and how it is kept.
public enum OnDemandCalibration: String, Sendable, CaseIterable {
    case gyroscope, accelerometer, orientation

    /// What one of them found.
    public enum Outcome: Sendable, Equatable {
        case gyroscope(GyroscopeCalibration)
        case accelerometer(AccelerometerFit)
        case orientation(MountMatrix)

        /// The line `--headless` prints.
        public var line: String {
            switch self {
            case .gyroscope(let g): g.line
            case .accelerometer(let a): a.line
            case .orientation(let m): m.orientationLine
            }
        }
    }

    /// How the samples a source delivers relate to its chip's own readings:
    /// the mount matrix it turned them by, and the accelerometer
    /// calibration it applied before that (a source's `scales`, a
    /// recording's header).
    public struct Delivery: Sendable, Equatable {
        public var mount: MountMatrix
        public var accelerometer: AccelerometerCalibration

        public init(mount: MountMatrix, accelerometer: AccelerometerCalibration = .none) {
            self.mount = mount
            self.accelerometer = accelerometer
        }

        public init(_ scales: SensorScales?) {
            self.init(mount: scales?.mount ?? .identity, accelerometer: scales?.accelerometer ?? .none)
        }
    }

    /// The sample as this calibration measures it: the gyroscope's in the
    /// board's frame as delivered (its bias is kept there); the
    /// accelerometer's in the chip's axes with no calibration (the fit
    /// makes a new one); for the orientation, in the chip's axes, still
    /// calibrated (a bias would turn gravity's direction). Nil when the
    /// delivery cannot be undone (a singular matrix).
    public func measured(_ sample: MotionSample, delivery: Delivery) -> MotionSample? {
        guard self != .gyroscope else { return sample }
        guard let undo = delivery.mount.inverse else { return nil }
        var s = sample
        s.acceleration = undo.apply(sample.acceleration)
        if self == .accelerometer {
            guard let raw = delivery.accelerometer.undo(s.acceleration) else { return nil }
            s.acceleration = raw
        }
        s.rotationRate = undo.apply(sample.rotationRate)
        return s
    }

    /// The outcome of still stretches found in `measured` samples, or why there is none.
    public func outcome(_ stretches: [StillStretch]) -> Result<Outcome, CalibrationRefusal> {
        switch self {
        case .gyroscope: GyroscopeCalibration.measure(stretches).map(Outcome.gyroscope).mapError(CalibrationRefusal.init)
        case .accelerometer: AccelerometerFit.fit(stretches).map(Outcome.accelerometer).mapError(CalibrationRefusal.init)
        case .orientation: OrientationFit.fit(stretches).map(Outcome.orientation).mapError(CalibrationRefusal.init)
        }
    }

    /// Whether what is found so far is all this calibration needs: a live
    /// run stops there. The gyroscope, once a stretch has lasted its
    /// measuring time; the accelerometer, six faces; the orientation, two poses.
    public func isComplete(_ stretches: [StillStretch], ongoing: StillStretch?) -> Bool {
        switch self {
        case .gyroscope:
            return (stretches + (ongoing.map { [$0] } ?? [])).contains { $0.hasRotation && $0.duration >= GyroscopeCalibration.measuringTime }
        case .accelerometer:
            return AccelerometerFit.Face.missing(in: stretches.map(\.meanAcceleration)).isEmpty
        case .orientation:
            return OrientationFit.poseCount(stretches) >= 2
        }
    }

    /// The calibration of a whole recording: its samples as measured, cut into still stretches.
    public func outcome(of recording: Recording) -> Result<Outcome, CalibrationRefusal> {
        let delivery = Delivery(mount: recording.header.mount, accelerometer: recording.header.accelerometer)
        var finder = StillStretchFinder()
        for sample in recording.samples {
            guard let measured = measured(sample, delivery: delivery) else {
                return .failure(CalibrationRefusal(description: "the recording's mount matrix \(delivery.mount) cannot be undone (it is singular)"))
            }
            finder.add(measured)
        }
        finder.finish()
        return outcome(finder.stretches)
    }

    /// `calibration` with `outcome` kept in it. `delivery` is how the
    /// samples it was measured on were delivered: a new mount turns what is
    /// kept in the board's frame (the gyroscope's bias, the magnetometer's
    /// calibration) from the old board frame to the new, and sets the
    /// neutral back to level: a neutral held against the wrong axes, and
    /// clamped to 30° of them, says nothing about the right ones.
    package static func kept(_ outcome: Outcome, in calibration: DeviceCalibration, delivery: Delivery) -> DeviceCalibration {
        var updated = calibration
        switch outcome {
        case .gyroscope(let g):
            updated.gyroBias = g.bias
        case .accelerometer(let fit):
            updated.accelerometer = fit.calibration
        case .orientation(let mount):
            updated.mount = mount
            if let undo = delivery.mount.inverse, case let turn = mount.composed(after: undo), !turn.isIdentity {
                updated.gyroBias = turn.apply(calibration.gyroBias)
                updated.reference = TiltReference(neutralUp: Vector3(0, 0, 1), isEnabled: calibration.reference.isEnabled)
                updated.magnetometer = calibration.magnetometer.map { $0.turned(by: turn) }
            }
        }
        return updated
    }
}

/// Why a calibration asked for was refused, in the player's words.
public struct CalibrationRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
    init(_ refusal: some CustomStringConvertible) { description = refusal.description }
}

extension MagnetometerCalibration {
    /// The same calibration with the board's axes turned by `turn` (new = turn · old).
    func turned(by turn: MountMatrix) -> MagnetometerCalibration {
        // Readings turn as r' = T·r, so the offset turns the same way and the soft iron becomes T·S·Tᵀ.
        let s = MountMatrix(softIron.0, softIron.1, softIron.2)
        let transposed = MountMatrix(turn.column(0), turn.column(1), turn.column(2))
        let soft = turn.composed(after: s).composed(after: transposed)
        return MagnetometerCalibration(offset: turn.apply(offset), softIron: soft.rows, accuracy: accuracy)
    }
}
