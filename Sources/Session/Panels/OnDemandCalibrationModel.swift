// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import MotionCore

/// `tiltmaze calibrate --gyroscope`, `--accelerometer` and `--orientation`
/// on a screen: the still stretches of the sensor's samples as they come
/// (`StillStretchFinder`), published for the screen, which judges them
/// (`CalibrationProgress`: the fits allocate, so they run on the screen's
/// thread, not this one).
public struct OnDemandCalibrationModel: MotionModel {
    /// The stretches the snapshot carries: more poses than a calibration uses.
    public static let capacity = 16

    public struct Snapshot: BitwiseCopyable, Sendable {
        /// The newest finished stretches, oldest first: `count` of them.
        public var stretches = InlineArray<16, StillStretch>(repeating: StillStretch())
        public var count = 0
        /// Finished stretches so far, the ones dropped for room included.
        public var found = 0
        /// The stretch under way, when `isStill`.
        public var ongoing = StillStretch()
        public var isStill = false
        /// The latest acceleration as delivered (board frame), m/s²: where the screen draws "up".
        public var acceleration = Vector3.zero
        public var samples = 0

        public init() {}

        /// The finished stretches as an array.
        public var finished: [StillStretch] { (0 ..< count).map { stretches[$0] } }
    }

    public enum Command: BitwiseCopyable, Sendable {
        /// Forget the stretches and begin again.
        case restart
    }

    public private(set) var snapshot = Snapshot()
    private var finder = StillStretchFinder(keeping: capacity)

    public init() {}

    public mutating func observe(_ sample: MotionSample, motion: FusedMotion, shake: Shake?) {
        finder.add(sample)
        snapshot.samples &+= 1
        if sample.hasAcceleration { snapshot.acceleration = sample.acceleration }
    }

    public mutating func step(dt: Double, gravity: Vector3) {
        if finder.found != snapshot.found {
            let kept = finder.stretches
            for i in kept.indices { snapshot.stretches[i] = kept[i] }
            snapshot.count = kept.count
            snapshot.found = finder.found
        }
        if let ongoing = finder.ongoing {
            snapshot.ongoing = ongoing
            snapshot.isStill = true
        } else {
            snapshot.isStill = false
        }
    }

    public mutating func apply(_ command: Command) {
        switch command {
        case .restart:
            finder.reset()
            snapshot = Snapshot()
        }
    }
}
