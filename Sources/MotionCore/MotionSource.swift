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
    /// Nominal samples per second.
    var rate: Double { get }
    /// Starts producing on the source's own thread.
    func start() throws
    /// Stops producing, waits for the thread to end and restores what `start` changed.
    func stop()
    /// Why the source stopped producing on its own (device unplugged, no data),
    /// or nil while it is fine. Set by the sensor thread; read from any thread.
    var failure: String? { get }
    /// Readings refused as impossible (see `SamplePlausibility`). Any thread.
    var rejectedCount: Int { get }
    /// Why no samples come for now, while the source waits for the device
    /// to come back (a controller switched off or out of range); nil when
    /// all is well. The game pauses while it is set. Any thread.
    var interruption: String? { get }
}

extension MotionSource {
    public var failure: String? { nil }
    public var rejectedCount: Int { 0 }
    public var interruption: String? { nil }
}

/// The ring size sources use: a quarter second at 1 kHz, so a physics thread
/// stalled by a page fault or a busy core loses nothing.
public let defaultSampleRingCapacity = 256
