// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Handoff

/// Something that produces `MotionSample`s on a thread of its own and pushes
/// them into a ring for the physics thread: a real IMU or the simulated board.
///
/// The source is the ring's only producer; whoever drains `samples` is its only
/// consumer.
public protocol MotionSource: AnyObject, Sendable {
    /// What the player is told: "simulated (keyboard tilt)", "mpu6050 on iio:device0", …
    var displayName: String { get }
    /// Where the samples arrive, oldest first. Full ring: newest refused, counted in `droppedCount`.
    var samples: SPSCRing<MotionSample> { get }
    /// Who the device is, stably across runs and replugs, for its stored
    /// calibration: "iio mpu6050 at platform/…/i2c-1/1-0068", "evdev NAME
    /// UNIQ", "simulated board". Nil when nothing is stored for it (a replay).
    var calibrationIdentity: String? { get }
    /// What one raw count is worth (nil where there are no counts: the
    /// simulated board), whether there is a gyroscope, and the mount matrix
    /// and accelerometer calibration applied, once started (a recording's header keeps them); nil when
    /// not known (a replay).
    var scales: SensorScales? { get }
    /// Nominal samples per second.
    var rate: Double { get }
    /// Starts producing on the source's own thread.
    func start() throws
    /// Stops producing, waits for the thread to end and restores what `start` changed.
    func stop()
    /// How it is doing: failure, interruption, notice and counts, in one
    /// value (no default: a source cannot leave a count out). May take a
    /// lock: read it when `statusChanges` moved, or off the hot path. Any thread.
    var health: SourceHealth { get }
    /// Goes up whenever `health`'s failure, interruption or notice may have
    /// changed, so a frame loop reads those (and takes their locks) only
    /// then. Any thread; one atomic load. A source whose texts never change keeps 0.
    var statusChanges: UInt64 { get }
    /// Whether a source with an end (a recording) has given its last sample.
    var hasEnded: Bool { get }
}

/// A sensor's units, as its driver gives them.
public struct SensorScales: Sendable, Equatable {
    /// m/s² per count; nil when the driver does not say (evdev resolution 0).
    public var accel: Double?
    /// rad/s per count; nil without a gyroscope.
    public var gyro: Double?
    public var hasGyroscope: Bool
    public var mount: MountMatrix
    /// µT per count of the magnetometer read beside the others; nil without
    /// one, or when not known (a CSV replay).
    public var magnetometer: Double?
    public var hasMagnetometer: Bool
    /// The accelerometer's calibration applied before the mount (`calibrate --accelerometer`).
    public var accelerometer: AccelerometerCalibration
    /// Whether the accelerometer is scaled by gravity, not by units its
    /// driver gives (evdev resolution 0): its scale is found anew each time
    /// it connects, so no calibration of its bias and scale would hold.
    public var accelerometerScaledByGravity = false

    /// - Parameter hasMagnetometer: whether there is one; by default,
    ///   whether `magnetometer` gives its scale.
    public init(accel: Double?, gyro: Double?, hasGyroscope: Bool, mount: MountMatrix,
                magnetometer: Double? = nil, hasMagnetometer: Bool? = nil, accelerometer: AccelerometerCalibration = .none) {
        self.accelerometer = accelerometer
        self.accel = accel
        self.gyro = gyro
        self.hasGyroscope = hasGyroscope
        self.mount = mount
        self.magnetometer = magnetometer
        self.hasMagnetometer = hasMagnetometer ?? (magnetometer != nil)
    }
}

extension MotionSource {
    public var scales: SensorScales? { nil }
    public var hasEnded: Bool { false }

    // One part of `health` each, for readers that want one: not
    // requirements, so every source gives them alike.
    /// Why the source stopped producing on its own, or nil while it is fine.
    public var failure: String? { health.failure }
    /// Why no samples come for now, or nil (see `SourceHealth.interruption`).
    public var interruption: String? { health.interruption }
    /// How the source reads now, if that changed (see `SourceHealth.notice`).
    public var notice: String? { health.notice }
    /// Readings refused as impossible.
    public var rejectedCount: Int { health.rejected }
    /// Reads made again after a transient error.
    public var retryCount: Int { health.retried }
    /// Samples dropped because every try to read them failed.
    public var failedSampleCount: Int { health.failedSamples }
}

/// The ring size sources use: a quarter second at 1 kHz, so a physics thread
/// stalled by a page fault or a busy core loses nothing.
public let defaultSampleRingCapacity = 256
