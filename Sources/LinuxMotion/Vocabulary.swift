// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// The types the API speaks in, named here so that `import LinuxMotion` is
// all a program needs, and so that what it sees is chosen: these names and
// their members, not everything MotionCore and MotionDevices make public
// for the game and the tool (filters' innards, the recording writer, the
// simulated board's physics). api/ keeps this surface; scripts/check-api.py
// checks it.
import Handoff
import MotionCore
import MotionDevices
// Re-exported whole (it is only these two types), so that their operators
// (`a - b`, `q * r`) work in a program that imports LinuxMotion alone.
@_exported import MotionMath

/// Which sensor to read: `.auto` (the best found, else the simulated board),
/// `.iio(name)`, `.evdev(path)`, `.replay(file)` or `.sim`.
public typealias SensorRequest = MotionDevices.SensorRequest
/// Where each device's neutral and gyroscope bias are kept (``MotionManager/calibrationStore``).
public typealias CalibrationStore = MotionDevices.CalibrationStore
/// A vector in the board frame (m/s² or rad/s): x right, y forward, z up out of the board.
public typealias Vector3 = MotionMath.Vector3
/// A rotation, as ``DeviceMotion/attitude`` gives it: board → earth.
public typealias Quaternion = MotionMath.Quaternion
/// The earth frame an attitude is given in (``MotionManager/startDeviceMotionUpdates(using:threadName:estimator:handler:completion:)``):
/// z up in all three; x arbitrary, arbitrary but held by the magnetometer, or magnetic north.
public typealias AttitudeReferenceFrame = MotionCore.AttitudeReferenceFrame
/// How far a magnetometer's calibration is trusted: CoreMotion's four levels.
public typealias MagneticFieldAccuracy = MotionCore.MagneticFieldAccuracy
/// A magnetometer's hard and soft iron (`tiltmaze calibrate --compass` makes one), for a ``TiltEstimator`` of your own.
public typealias MagnetometerCalibration = MotionCore.MagnetometerCalibration
/// An accelerometer's bias and scale in the chip's axes (`tiltmaze calibrate --accelerometer` makes one):
/// a source applies it before its mount matrix, and says so in ``SensorScales``.
public typealias AccelerometerCalibration = MotionCore.AccelerometerCalibration
/// What a user's calibration file changes in how a source reads its chip: their own
/// mount matrix (`tiltmaze calibrate --orientation`) and the accelerometer's calibration.
public typealias ChipCorrection = MotionDevices.ChipCorrection
/// The gyroscope's bias measured on demand, with its uncertainty (``MotionManager/calibrateGyroscope(duration:)``).
public typealias GyroscopeCalibration = MotionCore.GyroscopeCalibration
/// A shake: the axis, its sign, the push (m/s²) and when.
public typealias Shake = MotionCore.Shake
/// What of the attitude filter is worth keeping per device (``MotionManager/calibration``):
/// the neutral, the gyroscope's bias once learnt, the refined magnetometer.
public typealias CalibrationState = MotionCore.CalibrationState
/// The player's neutral tilt (`CalibrationState.reference`, in ``MotionManager/calibration``).
public typealias TiltReference = MotionCore.TiltReference
/// What ``MotionManager/changeReference(_:)`` does: capture the pose now, go back to level, or turn the correction off.
public typealias ReferenceChange = MotionCore.ReferenceChange
/// The attitude filter a manager may start from (``MotionManager/startDeviceMotionUpdates(using:threadName:estimator:handler:completion:)``).
public typealias TiltEstimator = MotionCore.TiltEstimator
/// One sample as a sensor gives it, for a ``MotionSource`` of your own.
public typealias MotionSample = MotionCore.MotionSample
/// A sensor of your own, for ``MotionManager/init(source:description:calibrationStore:)``:
/// it pushes `MotionSample`s into its `samples` ring from a thread of its own.
public typealias MotionSource = MotionCore.MotionSource
/// What one raw count is worth, and the mount matrix: a ``MotionSource``'s `scales`.
public typealias SensorScales = MotionCore.SensorScales
/// How a source of your own is doing, in one value: its failure, interruption, notice and counts.
public typealias SourceHealth = MotionCore.SourceHealth
/// How a sensor sits on the board: rows map the sensor's axes onto the board's.
public typealias MountMatrix = MotionCore.MountMatrix
/// The lock-free ring a ``MotionSource`` pushes into.
public typealias SPSCRing = Handoff.SPSCRing
