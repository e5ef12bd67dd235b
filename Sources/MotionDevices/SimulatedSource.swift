// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore
import Realtime
import Handoff
import Synchronization
import LibC

/// A motion sensor with no hardware: the keyboard tilts a virtual board
/// (`TiltBoard`) and a thread of its own samples it at a fixed rate into the
/// same kind of ring a real IMU feeds, so everything downstream runs exactly
/// as it would on a Pi.
public final class SimulatedSource: MotionSource, CommandedTilt, CommandedShake, @unchecked Sendable {
    // @unchecked Sendable: `board` and `thread` are touched only by the sensor
    // thread and by start/stop respectively; commands cross threads as atomics.

    public let samples: SPSCRing<MotionSample>
    public let rate: Double
    public var displayName: String { "simulated board (keyboard tilt)" }
    /// No device: nothing fails, waits or is counted.
    public var health: SourceHealth { .fine }
    public var statusChanges: UInt64 { 0 }
    public var calibrationIdentity: String? { "simulated board" }
    /// No counts and no mounting: a virtual board with a gyroscope.
    public var scales: SensorScales? { SensorScales(accel: nil, gyro: nil, hasGyroscope: true, mount: .identity) }

    /// Tilt change per key press, radians.
    public let tiltStep: Double

    // Commanded tilt, written by the input thread, read by the sensor thread.
    // Stored as Double bit patterns: there is no atomic Double.
    private let commandedRoll = Atomic<UInt64>(0.0.bitPattern)
    private let commandedPitch = Atomic<UInt64>(0.0.bitPattern)
    private let thread: PeriodicThread
    /// A shake asked for and not yet begun (direction + 1; 0: none), and the one under way.
    private let requestedShake = Atomic<Int>(0)
    @exclusivity(unchecked) private var shaking: (direction: Int, elapsed: Double)?
    /// How long a commanded shake lasts, and its peak, m/s².
    static let shakeDuration = 0.08
    static let shakePeak = 2 * standardGravity
    @exclusivity(unchecked) private var board: TiltBoard

    public init(rate: Double = 200, tiltStep: Double = 3 * .pi / 180,
                board: TiltBoard = TiltBoard(), ringCapacity: Int = defaultSampleRingCapacity) {
        precondition(rate > 0, "sample rate must be positive")
        self.rate = rate
        self.tiltStep = tiltStep
        self.board = board
        self.maxTilt = board.maxTilt
        self.samples = SPSCRing(capacity: ringCapacity, bell: Doorbell())
        // A stall of 50 periods or more skips them: no burst of stale samples.
        // Each sample is stamped with its deadline, so a late wake-up changes
        // no sample, only when it arrives: the kernel may fold the board's
        // timer into another's (the physics'), up to 80 % of a period late and
        // at most 4 ms (4 ms at 200 Hz), which on a virtual machine saved a
        // fifth of its cost (docs/performance.md, "A game at rest").
        let period = Int64((1e9 / rate).rounded())
        self.thread = PeriodicThread(name: "tiltmaze-sim", period: period, maxCatchUp: 50,
                                     timerSlack: Int(max(min(period * 4 / 5, 4_000_000), 10_000)))
    }

    /// Tilts the board one step further: `right` > 0 lowers the right edge,
    /// `up` > 0 lowers the top edge (so the ball rolls that way). Any thread.
    public func nudge(right: Int, up: Int) {
        update(commandedRoll) { clamped($0 + Double(right) * tiltStep) }
        update(commandedPitch) { clamped($0 + Double(up) * tiltStep) }
    }

    public func shake(direction: Int) {
        guard (0..<6).contains(direction) else { return }
        requestedShake.store(direction + 1, ordering: .relaxed)
    }

    /// Commands the board to a tilt, in radians: `right` > 0 lowers the
    /// right edge, `up` > 0 the top edge, each within ±`maxTilt`. The board
    /// turns there as a hand would turn it (`TiltBoard`), so the gyroscope
    /// sees the turn. Any thread.
    public func tilt(right: Double, up: Double) {
        commandedRoll.store(clamped(right).bitPattern, ordering: .relaxed)
        commandedPitch.store(clamped(up).bitPattern, ordering: .relaxed)
    }

    private func clamped(_ angle: Double) -> Double { max(-maxTilt, min(maxTilt, angle)) }

    /// The furthest the board tilts either way about each axis, radians.
    public let maxTilt: Double

    /// Commands the board back to level. Any thread.
    public func level() {
        commandedRoll.store(0.0.bitPattern, ordering: .relaxed)
        commandedPitch.store(0.0.bitPattern, ordering: .relaxed)
    }

    /// The commanded tilt (roll, pitch) in radians.
    public var commandedTilt: (roll: Double, pitch: Double) {
        (Double(bitPattern: commandedRoll.load(ordering: .relaxed)),
         Double(bitPattern: commandedPitch.load(ordering: .relaxed)))
    }

    private func update(_ atomic: borrowing Atomic<UInt64>, _ f: (Double) -> Double) {
        var old = atomic.load(ordering: .relaxed)
        while true {
            let new = f(Double(bitPattern: old)).bitPattern
            let (exchanged, original) = atomic.compareExchange(expected: old, desired: new, ordering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    public func start() throws {
        let dt = Double(thread.period) / 1e9
        try thread.start { [self] wake in
            // Stamped with the instant it stands for, as a real IMU's data-ready timestamp is.
            board.targetRoll = Double(bitPattern: commandedRoll.load(ordering: .relaxed))
            board.targetPitch = Double(bitPattern: commandedPitch.load(ordering: .relaxed))
            var sample = board.advance(by: dt, timestamp: wake.deadline)
            let asked = requestedShake.exchange(0, ordering: .relaxed)
            if asked > 0 { shaking = (asked - 1, 0) }
            if let (direction, elapsed) = shaking {
                // Half a sine of 2 g along the axis: a hand's quick jab.
                let push = Self.shakePeak * sin(.pi * min(1, elapsed / Self.shakeDuration))
                let sign = direction % 2 == 0 ? 1.0 : -1.0
                switch direction / 2 {
                case 0: sample.acceleration.x += sign * push
                case 1: sample.acceleration.y += sign * push
                default: sample.acceleration.z += sign * push
                }
                shaking = elapsed + dt < Self.shakeDuration ? (direction, elapsed + dt) : nil
            }
            samples.push(sample)
        }
    }

    public func stop() { thread.stop() }
}
