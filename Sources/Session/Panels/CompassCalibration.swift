// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// `tiltmaze calibrate --compass`: gathers the magnetometer's readings while
/// the player turns the board through a figure of eight, and fits its hard
/// and soft iron once a second (`CompassCalibrator`), so the screen can show
/// the directions covered filling in, the accuracy rising, and what saving
/// would keep.
public struct CompassCalibration: MotionModel {
    public struct Snapshot: BitwiseCopyable, Sendable, Equatable {
        /// Readings kept so far, and samples that carried a field at all.
        public var readings = 0
        public var fieldSamples = 0
        /// Whether a fit exists; the rest below is meaningful only then.
        public var hasFit = false
        /// Bit i: `CompassCalibrator.directions[i]` is covered.
        public var covered: UInt32 = 0
        /// 0…1.
        public var coverage = 0.0
        public var accuracy = MagneticFieldAccuracy.uncalibrated
        /// µT after calibration, and the readings' distance from the fit as a fraction of it.
        public var strength = 0.0
        public var residual = 0.0
        public var offset = Vector3.zero
        public var softIron0 = Vector3(1, 0, 0), softIron1 = Vector3(0, 1, 0), softIron2 = Vector3(0, 0, 1)
        /// Where the latest reading points from the fitted centre (a unit vector, board frame;
        /// zero before a fit): the screen shows it moving, so the player sees the readings come.
        public var direction = Vector3.zero

        public init() {}

        /// The calibration saving would keep.
        public var calibration: MagnetometerCalibration {
            MagnetometerCalibration(offset: offset, softIron: (softIron0, softIron1, softIron2), accuracy: accuracy)
        }
    }

    public enum Command: BitwiseCopyable, Sendable {
        /// Forget the readings and begin again.
        case restart
    }

    public private(set) var snapshot = Snapshot()
    private var calibrator: CompassCalibrator
    private var sinceFit = 0.0
    /// How often the fit is made, s.
    public let fitInterval: Double

    public init(capacity: Int = 4096, fitInterval: Double = 1) {
        calibrator = CompassCalibrator(capacity: capacity)
        self.fitInterval = fitInterval
    }

    public mutating func observe(_ sample: MotionSample, motion: FusedMotion, shake: Shake?) {
        guard sample.hasMagneticField else { return }
        snapshot.fieldSamples &+= 1
        // The raw reading: a stored calibration is what is being made anew.
        calibrator.add(sample.magneticField, at: sample.timestamp)
        snapshot.readings = calibrator.count
        if snapshot.hasFit {
            let d = snapshot.calibration.apply(sample.magneticField)
            if d.length > 0 { snapshot.direction = d / d.length }
        }
    }

    public mutating func step(dt: Double, gravity: Vector3) {
        sinceFit += dt
        guard sinceFit >= fitInterval else { return }
        sinceFit = 0
        fit()
    }

    /// Fits now rather than at the next interval.
    public mutating func fit() {
        guard let result = calibrator.result() else {
            snapshot.hasFit = false
            return
        }
        snapshot.hasFit = true
        snapshot.covered = result.covered
        snapshot.coverage = result.coverage
        snapshot.accuracy = result.calibration.accuracy
        snapshot.strength = result.strength
        snapshot.residual = result.residual
        snapshot.offset = result.calibration.offset
        (snapshot.softIron0, snapshot.softIron1, snapshot.softIron2) = result.calibration.softIron
    }

    public mutating func apply(_ command: Command) {
        switch command {
        case .restart:
            calibrator.removeAll()
            snapshot = Snapshot()
            sinceFit = 0
        }
    }
}
