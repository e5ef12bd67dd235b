// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import MotionDevices
import TestSupport

/// An accelerometer without units (evdev resolution 0) is scaled by gravity
/// anew at each connection, so its bias and scale cannot be calibrated:
/// the calibration says so however well the faces are held, and the other
/// two calibrations go on as ever.
@Suite("Calibrations on demand: an accelerometer scaled by gravity")
struct UnitlessAccelerometerTests {
    static let delivery: OnDemandCalibration.Delivery = {
        var scales = SensorScales(accel: nil, gyro: 0.001, hasGyroscope: true, mount: .identity)
        scales.accelerometerScaledByGravity = true
        return OnDemandCalibration.Delivery(scales)
    }()

    @Test("six faces held well are still refused, saying why; the screen's prompt says it from the start")
    func accelerometerRefused() throws {
        var r = try CalibrationRecording()
        r.hold(each: CalibrationRecording.sixFaces, seconds: 3)
        let stretches = StillStretchFinder.stretches(in: r.samples)
        #expect(Self.delivery.accelerometerScaledByGravity)
        guard case .failure(let refusal) = OnDemandCalibration.accelerometer.outcome(stretches, delivery: Self.delivery) else {
            Issue.record("a unitless accelerometer was calibrated")
            return
        }
        #expect(refusal.description.contains("evdev resolution is 0"))
        let progress = CalibrationProgress(.accelerometer, delivery: Self.delivery, stretches: stretches, ongoing: nil)
        #expect(!progress.isComplete)
        #expect(CalibrationProgress(.accelerometer, delivery: Self.delivery, stretches: [], ongoing: nil).prompt
            .hasPrefix("nothing to calibrate: this accelerometer gives no units"))
        // The same poses delivered with units are calibrated.
        let withUnits = OnDemandCalibration.Delivery(mount: .identity)
        #expect((try? OnDemandCalibration.accelerometer.outcome(stretches, delivery: withUnits).get()) != nil)
    }

    @Test("the gyroscope and the board's axes are calibrated as ever")
    func othersGoOn() throws {
        var r = try CalibrationRecording(gyroBias: Vector3(0.01, 0, -0.02))
        r.hold(each: [CalibrationRecording.flat, CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 30)], seconds: 4)
        let stretches = StillStretchFinder.stretches(in: r.samples)
        #expect(OnDemandCalibration.gyroscope.impossible(with: Self.delivery) == nil)
        #expect((try? OnDemandCalibration.gyroscope.outcome(stretches, delivery: Self.delivery).get()) != nil)
        #expect(try OnDemandCalibration.orientation.outcome(stretches, delivery: Self.delivery).get() == .orientation(.identity))
    }
}
