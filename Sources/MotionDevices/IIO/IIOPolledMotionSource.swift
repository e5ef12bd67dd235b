// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import SystemPackage
import MotionCore
import IIO
import Realtime
import Handoff
import LibC

/// An IIO IMU whose driver made no buffer (no interrupt line: a four-wire
/// MPU-6050 on an overlay that declares none, an ADXL345 wired without
/// INT), read by polling (`IIOPoller`) on a thread of its own, at the rate
/// asked.
///
/// `start()` sets the rate as capture would (restored by `stop()`; the
/// timestamp clock is left alone, since samples are stamped here), opens the
/// raw files and reads the scales and offsets once.
public final class IIOPolledMotionSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `poller` and `setups` belong to start/stop and,
    // between them, to the sensor thread; `thread` is synchronised.

    public let imu: IIOIMU
    public let samples: SPSCRing<MotionSample>
    public private(set) var rate: Double
    public let displayName: String

    private var poller: IIOPoller?
    private var setups: [IIOCaptureSetup] = []
    private let thread: SensorThread
    private let wantedRate: Double
    private let mountOverride: MountMatrix?
    private let calibrations: CalibrationStore?
    private let udevDirectory: String

    /// - Parameter calibrations: where this user's calibration files are (see `IIOMotionSource`); nil: none.
    public init(imu: IIOIMU, rate: Double = 200, mount: MountMatrix? = nil, acceleration: IIOAccelerationChannels = .accelerometer,
                calibrations: CalibrationStore? = nil,
                ringCapacity: Int = defaultSampleRingCapacity, udevDirectory: String = UdevDatabase.defaultDirectory) {
        self.calibrations = calibrations
        self.imu = imu
        self.acceleration = acceleration
        self.wantedRate = rate
        self.rate = rate
        self.mountOverride = mount
        self.udevDirectory = udevDirectory
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        self.thread = SensorThread(samples: samples)
        self.displayName = imu.placeDescription + Self.nameSuffix + (acceleration == .chipGravity ? IIOMotionSource.chipFusionSuffix : "")
    }

    /// Where the tilt comes from.
    public let acceleration: IIOAccelerationChannels

    public var calibrationIdentity: String? { imu.identity }

    /// What the player's line adds to the IMU's place.
    public static let nameSuffix = " (polled: no buffer)"

    public var scales: SensorScales? {
        guard let poller else { return nil }
        return SensorScales(accel: poller.accel.scale.x, gyro: poller.gyro?.scale.x, hasGyroscope: poller.gyro != nil,
                            mount: poller.mount, magnetometer: poller.magn?.scale.x, accelerometer: poller.accelerometer)
    }

    public var health: SourceHealth { thread.health }
    public var statusChanges: UInt64 { thread.statusChanges }

    public func start() throws {
        guard !thread.hasStarted else { return }
        thread.prepareStart()
        if let advice = imu.noAccelerometerAdvice { throw SourceError(description: advice) }
        if acceleration == .chipGravity, let refusal = imu.chipFusionRefusal { throw SourceError(description: refusal) }
        do {
            try prepare()
        } catch {
            release()
            throw error.withSetupAdvice
        }
        // The device's own rate caps what polling can see: faster reads would repeat values.
        rate = min(wantedRate, setups.compactMap(\.rate).min() ?? wantedRate)
        do {
            let poller = self.poller!, rate = self.rate, thread = self.thread
            try thread.start(name: "tiltmaze-poll") {
                var judge = SamplePlausibility()
                poller.run(rate: rate, thread: thread, judge: &judge)
            }
        } catch {
            release()
            throw error
        }
    }

    public func stop() {
        guard thread.stop() else { return }
        release()
    }

    /// The rate (a rate this user may not set is polled as it stands), then
    /// the raw files, scales, offsets and mount matrix.
    private func prepare() throws(IIOError) {
        for device in imu.devices {
            let setup = IIOCaptureSetup(device: device)
            setups.append(setup)
            let rateResult = Result { () throws(IIOError) in try setup.configureRate(wantedRate: wantedRate) }
            if case .failure(let error) = rateResult, !error.isPermissionDenied { throw error }
        }
        poller = try IIOPoller(imu: imu, acceleration: acceleration, mount: mountOverride, udevDirectory: udevDirectory,
                               user: calibrations?.chipCorrection(for: imu.identity))
    }

    private func release() {
        poller = nil
        for setup in setups { setup.restore() }
        setups = []
    }
}
