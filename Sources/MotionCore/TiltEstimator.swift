/// Turns a stream of samples into the direction of gravity in the board's frame,
/// which is what the physics needs: the ball rolls along gravity's component in
/// the board's plane.
///
/// For now it low-pass filters the accelerometer (hand jitter and the ball's
/// own shaking are faster than a deliberate tilt). Samples without an
/// acceleration (a gyro-only device) leave the estimate alone.
public struct TiltEstimator: Sendable {
    private var filter: LowPassFilter
    public private(set) var samplesSeen = 0
    public private(set) var lastTimestamp: Int64 = 0

    /// - Parameter cutoffHz: low-pass cut-off; 5 Hz keeps a tilt snappy and hides tremor.
    public init(cutoffHz: Double = 5) {
        filter = LowPassFilter(cutoffHz: cutoffHz)
    }

    /// Folds in one sample.
    public mutating func add(_ sample: MotionSample) {
        guard sample.hasAcceleration else { return }
        filter.update(sample.acceleration, timestamp: sample.timestamp)
        samplesSeen &+= 1
        lastTimestamp = sample.timestamp
    }

    /// Gravity in the board's frame, m/s²: the opposite of the filtered specific
    /// force. Zero until the first acceleration arrives (the ball then stays put).
    public var gravity: Vector3 { samplesSeen == 0 ? .zero : -filter.value }
}
