// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Synchronization

/// The four kinds of update, each as a handler on the manager's thread or as
/// an asynchronous sequence. One kind runs at a time on a manager.
extension MotionManager {
    // MARK: Handlers, on the manager's thread

    /// Starts the sensor and a thread named `threadName` that calls `handler`
    /// with each sample's motion, in order, on that thread; `completion`
    /// runs once on it if the updates end by themselves: with the error when
    /// the sensor stopped, with nil when a recording ran out.
    ///
    /// The handler runs on a real OS thread, not Swift's cooperative pool,
    /// as soon as the sensor's thread pushes a sample; the path from the
    /// sensor to it takes no lock and allocates nothing. Keep the handler
    /// short: samples wait in the sensor's ring while it runs.
    /// - Parameters:
    ///   - referenceFrame: the frame ``DeviceMotion/attitude`` is given in.
    ///     The two that use the magnetometer fall back to the default,
    ///     `xArbitraryZVertical`, until a field has been read (and for good
    ///     on a sensor without one); ``DeviceMotion/heading`` is given in
    ///     `xMagneticNorthZVertical` only.
    ///   - threadName: the thread's name (15 bytes are kept), as `top -H` shows it.
    ///   - estimator: the attitude filter to start from; nil starts from the
    ///     device's stored calibration (its neutral and gyroscope bias), else level.
    ///   - handler: called with each sample's motion, on the manager's thread.
    ///   - completion: called once, on that thread, if the updates end by themselves.
    /// - Throws: ``MotionError/unavailable(_:)`` when the sensor cannot be
    ///   had, ``MotionError/alreadyActive`` when updates run already.
    public func startDeviceMotionUpdates(using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
                                         threadName: String = "motion-updates", estimator: TiltEstimator? = nil,
                                         handler: @escaping @Sendable (DeviceMotion) -> Void,
                                         completion: @escaping @Sendable (MotionError?) -> Void = { _ in }) throws(MotionError) {
        try startUpdates(threadName: threadName, estimator: estimator, referenceFrame: referenceFrame,
                         deliver: Self.deviceMotion(handler), completion: completion)
    }

    /// Calls `handler` with each accelerometer reading as the sensor gave it,
    /// on a thread named `threadName`; `completion` as for
    /// ``startDeviceMotionUpdates(using:threadName:estimator:handler:completion:)``.
    /// The attitude filter still runs, so ``calibration`` keeps learning.
    public func startAccelerometerUpdates(threadName: String = "motion-updates",
                                          handler: @escaping @Sendable (AccelerometerData) -> Void,
                                          completion: @escaping @Sendable (MotionError?) -> Void = { _ in }) throws(MotionError) {
        try startUpdates(threadName: threadName, estimator: nil, deliver: Self.accelerometer(handler), completion: completion)
    }

    /// Calls `handler` with each gyroscope reading as the sensor gave it
    /// (bias included), on a thread named `threadName`.
    /// - Throws: ``MotionError/unavailable(_:)`` as well when the sensor has no gyroscope.
    public func startGyroUpdates(threadName: String = "motion-updates",
                                 handler: @escaping @Sendable (GyroData) -> Void,
                                 completion: @escaping @Sendable (MotionError?) -> Void = { _ in }) throws(MotionError) {
        try startUpdates(threadName: threadName, estimator: nil, needsGyroscope: true, deliver: Self.gyro(handler),
                         completion: completion)
    }

    /// Calls `handler` on a thread named `threadName` each time the board is
    /// shaken: a push along one axis beyond 1.3 g of user acceleration, then
    /// quiet for half a second (ColorTilt's shake).
    public func startShakeUpdates(threadName: String = "motion-updates",
                                  handler: @escaping @Sendable (Shake) -> Void,
                                  completion: @escaping @Sendable (MotionError?) -> Void = { _ in }) throws(MotionError) {
        try startUpdates(threadName: threadName, estimator: nil, deliver: Self.shake(handler), completion: completion)
    }

    // MARK: Asynchronous sequences

    /// The motion of each sample as an asynchronous sequence, read on a
    /// thread of the manager's; the sequence ends with ``MotionError`` when
    /// the sensor stops, and without error when a recording runs out.
    /// Leaving the loop stops the updates.
    ///
    /// A consumer slower than the sensor gets the newest `bufferLimit`
    /// values: older ones are dropped and counted in ``droppedUpdates``;
    /// the sensor's thread never waits for the consumer. Values come in
    /// batches at most every 4 ms (each sample at once below 250 Hz), which
    /// spares the consumer a wake-up per sample; for each sample as it
    /// comes, use ``startDeviceMotionUpdates(using:threadName:estimator:handler:completion:)``.
    /// `referenceFrame` is as for that method.
    public func deviceMotionUpdates(using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical,
                                    bufferLimit: Int = 256, threadName: String = "motion-updates")
        throws(MotionError) -> AsyncThrowingStream<DeviceMotion, any Error> {
        try updates(bufferLimit: bufferLimit) { (yield, completion) throws(MotionError) in
            try startUpdates(threadName: threadName, estimator: nil, referenceFrame: referenceFrame,
                             coalescing: Self.streamCoalescing, deliver: Self.deviceMotion(yield), completion: completion)
        }
    }

    /// Each accelerometer reading, as ``deviceMotionUpdates(using:bufferLimit:threadName:)`` gives motion.
    public func accelerometerUpdates(bufferLimit: Int = 256, threadName: String = "motion-updates")
        throws(MotionError) -> AsyncThrowingStream<AccelerometerData, any Error> {
        try updates(bufferLimit: bufferLimit) { (yield, completion) throws(MotionError) in
            try startUpdates(threadName: threadName, estimator: nil, coalescing: Self.streamCoalescing,
                             deliver: Self.accelerometer(yield), completion: completion)
        }
    }

    /// Each gyroscope reading, as ``deviceMotionUpdates(using:bufferLimit:threadName:)`` gives motion.
    /// - Throws: ``MotionError/unavailable(_:)`` as well when the sensor has no gyroscope.
    public func gyroUpdates(bufferLimit: Int = 256, threadName: String = "motion-updates")
        throws(MotionError) -> AsyncThrowingStream<GyroData, any Error> {
        try updates(bufferLimit: bufferLimit) { (yield, completion) throws(MotionError) in
            try startUpdates(threadName: threadName, estimator: nil, needsGyroscope: true, coalescing: Self.streamCoalescing,
                             deliver: Self.gyro(yield), completion: completion)
        }
    }

    /// Each shake, as ``deviceMotionUpdates(using:bufferLimit:threadName:)`` gives motion.
    public func shakeUpdates(bufferLimit: Int = 16, threadName: String = "motion-updates")
        throws(MotionError) -> AsyncThrowingStream<Shake, any Error> {
        try updates(bufferLimit: bufferLimit) { (yield, completion) throws(MotionError) in
            try startUpdates(threadName: threadName, estimator: nil, coalescing: Self.streamCoalescing,
                             deliver: Self.shake(yield), completion: completion)
        }
    }

    // MARK: Shared by both forms

    /// An async sequence's values go in batches, at most one every 4 ms:
    /// each delivery wakes the consumer's task on Swift's pool, which costs
    /// tens of microseconds of CPU on a small board; at 100 Hz every sample
    /// still goes at once. The handlers take each sample as it comes.
    static let streamCoalescing: Int64 = 4_000_000

    static func deviceMotion(_ handler: @escaping @Sendable (DeviceMotion) -> Void) -> UpdateLoop.Deliver {
        { sample, motion, shake, reference in handler(DeviceMotion(sample, motion: motion, shake: shake, reference: reference)) }
    }

    static func accelerometer(_ handler: @escaping @Sendable (AccelerometerData) -> Void) -> UpdateLoop.Deliver {
        { sample, _, _, _ in
            if sample.hasAcceleration { handler(AccelerometerData(timestamp: sample.timestamp, acceleration: sample.acceleration)) }
        }
    }

    static func gyro(_ handler: @escaping @Sendable (GyroData) -> Void) -> UpdateLoop.Deliver {
        { sample, _, _, _ in
            if sample.hasRotationRate { handler(GyroData(timestamp: sample.timestamp, rotationRate: sample.rotationRate)) }
        }
    }

    static func shake(_ handler: @escaping @Sendable (Shake) -> Void) -> UpdateLoop.Deliver {
        { _, _, shake, _ in if let shake { handler(shake) } }
    }

    /// A stream fed by a handler started with `start`: bounded, newest kept,
    /// drops counted; the updates stop when the consumer leaves.
    private func updates<Value: Sendable>(
        bufferLimit: Int,
        start: (@escaping @Sendable (Value) -> Void, @escaping @Sendable (MotionError?) -> Void) throws(MotionError) -> Void
    ) throws(MotionError) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(max(bufferLimit, 1)))
        let counts = counts
        try start({ value in
            if case .dropped = continuation.yield(value) { counts.dropped.wrappingAdd(1, ordering: .relaxed) }
        }, { error in
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        })
        continuation.onTermination = { [weak self] termination in
            // A consumer that left the loop: stop reading, off the update
            // thread (stopping joins it, which it cannot do itself).
            guard case .cancelled = termination, let self else { return }
            Task.detached { self.stop() }
        }
        return stream
    }
}
