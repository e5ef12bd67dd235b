// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// The calibrations a player asks for (`tiltmaze calibrate --gyroscope`,
/// `--accelerometer`, `--orientation`): what each needs of the still
/// stretches found, what it found, and how it is kept.
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
        /// The accelerometer is scaled by gravity at each connection (evdev resolution 0).
        public var accelerometerScaledByGravity: Bool

        public init(mount: MountMatrix, accelerometer: AccelerometerCalibration = .none, accelerometerScaledByGravity: Bool = false) {
            self.mount = mount
            self.accelerometer = accelerometer
            self.accelerometerScaledByGravity = accelerometerScaledByGravity
        }

        /// How a recording's samples were delivered, as its header says.
        public init(_ header: RecordingHeader) {
            self.init(mount: header.mount, accelerometer: header.accelerometer,
                      accelerometerScaledByGravity: header.accelerometerScaledByGravity)
        }

        public init(_ scales: SensorScales?) {
            self.init(mount: scales?.mount ?? .identity, accelerometer: scales?.accelerometer ?? .none,
                      accelerometerScaledByGravity: scales?.accelerometerScaledByGravity ?? false)
        }
    }

    /// Why this calibration cannot be made of samples so delivered, whatever
    /// poses are held; nil when it can.
    public func impossible(with delivery: Delivery) -> CalibrationRefusal? {
        guard self == .accelerometer, delivery.accelerometerScaledByGravity else { return nil }
        return CalibrationRefusal(description: "this accelerometer gives no units (its evdev resolution is 0), so it is scaled "
                                  + "by gravity anew each time it connects: a bias and scale fitted now would not hold")
    }

    /// A still stretch of delivered samples as this calibration measures
    /// it: the gyroscope's in the board's frame as delivered (its bias is
    /// kept there); the accelerometer's in the chip's axes with no
    /// calibration (the fit makes a new one); for the orientation, in the
    /// chip's axes, still calibrated (a bias would turn gravity's
    /// direction). Means turn exactly; the per-axis spreads and
    /// uncertainties as independent axes would. Nil when the delivery
    /// cannot be undone (a singular matrix).
    public func measured(_ stretch: StillStretch, delivery: Delivery) -> StillStretch? {
        guard self != .gyroscope else { return stretch }
        guard let undoMount = delivery.mount.inverse else { return nil }
        var linear = undoMount
        var offset = Vector3.zero
        if self == .accelerometer {
            // undo(c) = T⁻¹·c + b: the chip's raw reading from a calibrated one.
            guard let raw = delivery.accelerometer.undo(.zero) else { return nil }
            let t = delivery.accelerometer.matrix
            guard let inverse = MountMatrix(t.0, t.1, t.2).inverse else { return nil }
            linear = inverse.composed(after: undoMount)
            offset = raw
        }
        var s = stretch
        s.meanAcceleration = linear.apply(stretch.meanAcceleration) + offset
        s.accelerationSpread = Self.spread(stretch.accelerationSpread, through: linear)
        s.accelerationUncertainty = Self.spread(stretch.accelerationUncertainty, through: linear)
        s.meanRotation = undoMount.apply(stretch.meanRotation)
        s.rotationUncertainty = Self.spread(stretch.rotationUncertainty, through: undoMount)
        return s
    }

    /// Per-axis standard deviations `s` seen through `m`, the axes taken as independent.
    static func spread(_ s: Vector3, through m: MountMatrix) -> Vector3 {
        func row(_ r: Vector3) -> Double { (r.x * r.x * s.x * s.x + r.y * r.y * s.y * s.y + r.z * r.z * s.z * s.z).squareRoot() }
        return Vector3(row(m.rows.0), row(m.rows.1), row(m.rows.2))
    }

    /// The outcome of still stretches of delivered samples, or why there is none.
    public func outcome(_ stretches: [StillStretch], delivery: Delivery) -> Result<Outcome, CalibrationRefusal> {
        if let refusal = impossible(with: delivery) { return .failure(refusal) }
        var measured: [StillStretch] = []
        for stretch in stretches {
            guard let m = self.measured(stretch, delivery: delivery) else {
                return .failure(CalibrationRefusal(description: "the readings cannot be turned back into the chip's axes: the mount "
                                                   + "matrix \(delivery.mount) or the accelerometer calibration applied is singular"))
            }
            measured.append(m)
        }
        switch self {
        case .gyroscope: return GyroscopeCalibration.measure(measured).map(Outcome.gyroscope).mapError(CalibrationRefusal.init)
        case .accelerometer: return AccelerometerFit.fit(measured).map(Outcome.accelerometer).mapError(CalibrationRefusal.init)
        case .orientation: return OrientationFit.fit(measured).map(Outcome.orientation).mapError(CalibrationRefusal.init)
        }
    }

    /// The calibration of a whole recording: its still stretches, measured.
    public func outcome(of recording: Recording) -> Result<Outcome, CalibrationRefusal> {
        return outcome(StillStretchFinder.stretches(in: recording.samples), delivery: Delivery(recording.header))
    }

    /// `calibration` with `outcome` kept in it. `delivery` is how the
    /// samples it was measured on were delivered: a new mount turns what is
    /// kept in the board's frame (the gyroscope's bias, the magnetometer's
    /// calibration) from the old board frame to the new, and sets the
    /// neutral back to level: a neutral held against the wrong axes, and
    /// clamped to 30° of them, says nothing about the right ones. A new
    /// accelerometer calibration sets it back to level too: it was taken
    /// against readings whose bias is now removed.
    ///
    /// What is kept in the board's frame is in the frame of the mount in
    /// force for the device: the user's own when one is kept, else the one
    /// the samples came with. They differ for a recording made before the
    /// user's mount was set; a bias measured on it is turned into the frame in force.
    package static func kept(_ outcome: Outcome, in calibration: DeviceCalibration, delivery: Delivery) -> DeviceCalibration {
        var updated = calibration
        let inForce = calibration.mount ?? delivery.mount
        switch outcome {
        case .gyroscope(let g):
            let intoForce = delivery.mount.inverse.map { inForce.composed(after: $0) }
            updated.gyroBias = intoForce?.apply(g.bias) ?? g.bias
        case .accelerometer(let fit):
            updated.accelerometer = fit.calibration
            // A neutral taken before was taken against the bias now removed (up to half a g, 30°).
            if fit.calibration != calibration.accelerometer {
                updated.reference = TiltReference(neutralUp: Vector3(0, 0, 1), isEnabled: calibration.reference.isEnabled)
            }
        case .orientation(let mount):
            updated.mount = mount
            if let undo = inForce.inverse, case let turn = mount.composed(after: undo), !turn.isIdentity {
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
