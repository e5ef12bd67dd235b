// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// A stretch of samples over which the board lay still, with the means a
/// calibration is made from and how far each can be trusted.
///
/// The uncertainty of a mean is not the readings' spread over √n: a sensor's
/// own low-pass filter and slow wander make neighbouring readings alike, so
/// n readings hold fewer than n independent ones. It is taken by batch
/// means instead (the spread of the stretch's quarter-second blocks' means
/// over √blocks), which holds for correlated noise, and
/// never below what white noise alone would give.
public struct StillStretch: Sendable, Equatable, BitwiseCopyable {
    /// Monotonic ns of its first and last sample.
    public var start: Int64
    public var end: Int64
    /// Samples with an acceleration, and with a rotation rate.
    public var accelerationCount: Int
    public var rotationCount: Int
    /// m/s², in the frame the samples were given in.
    public var meanAcceleration: Vector3
    /// rad/s; zero without a gyroscope.
    public var meanRotation: Vector3
    /// The standard uncertainty of `meanRotation` per axis, rad/s.
    public var rotationUncertainty: Vector3
    /// The standard uncertainty of `meanAcceleration` per axis, m/s².
    public var accelerationUncertainty: Vector3
    /// The readings' standard deviation about `meanAcceleration` per axis, m/s²: the sensor's noise as held.
    public var accelerationSpread: Vector3

    public init(start: Int64 = 0, end: Int64 = 0, accelerationCount: Int = 0, rotationCount: Int = 0,
                meanAcceleration: Vector3 = .zero, meanRotation: Vector3 = .zero, rotationUncertainty: Vector3 = .zero,
                accelerationUncertainty: Vector3 = .zero, accelerationSpread: Vector3 = .zero) {
        self.start = start
        self.end = end
        self.accelerationCount = accelerationCount
        self.rotationCount = rotationCount
        self.meanAcceleration = meanAcceleration
        self.meanRotation = meanRotation
        self.rotationUncertainty = rotationUncertainty
        self.accelerationUncertainty = accelerationUncertainty
        self.accelerationSpread = accelerationSpread
    }

    /// Seconds from the first sample to the last.
    public var duration: Double { Double(end - start) / 1e9 }
    public var hasRotation: Bool { rotationCount > 0 }
}

/// Cuts a stream of samples into still stretches.
///
/// The samples are taken in quarter-second blocks. A block is still when
/// every reading in it stays near the previous block's mean (the gyroscope
/// within `gyroscopeDeviation`, the accelerometer within
/// `accelerometerDeviation`: the attitude filter's rest thresholds, VQF's)
/// and its gyroscope mean is no larger than a bias can be. Consecutive still
/// blocks make a stretch while their means agree with its first block's:
/// the accelerometer's (and the magnetometer's) direction within
/// `maximumTilt`, the gyroscope's within `rateAgreement`; a slow steady
/// turn passes each block's test but fails these. A block that disagrees
/// ends the stretch and starts the next one, a new pose. One unsteady
/// block (`joltBlocks`) is left out without ending the stretch when the
/// block after it is still and agrees: a jolt is not a move.
///
/// The filter's own rest test (`RestDetector`) compares readings with
/// means low-passed over half a second, which takes two seconds or more to
/// settle after a move: right for the filter, which must never call a turn
/// a rest, too slow for a player asked to hold six faces in turn. Blocks
/// call the board still half a second after it stops.
///
/// The same finder serves a calibration screen, fed live, and a headless
/// calibration, fed a recording.
public struct StillStretchFinder: Sendable {
    public let thresholds: StillnessThresholds
    /// The largest bias believed, rad/s: a steadier reading than this is a turn.
    public let maxBias: Double
    /// The shortest stretch kept, s.
    public var minimumDuration: Double
    private var block: Block
    private var previous: Block.Means?
    private var current: Accumulator?
    private var reference: Block.Means?
    /// Unsteady blocks in a row inside the stretch under way.
    private var jolts = 0
    private var lastTimestamp: Int64?
    /// Stretches finished so far, oldest first: the newest `keeping` of them.
    public private(set) var stretches: [StillStretch] = []
    /// Stretches finished so far, those no longer kept included.
    public private(set) var found = 0
    /// How many stretches are kept: past it the oldest goes, so a screen
    /// left open for hours holds as many as it shows and never grows.
    public let keeping: Int

    /// The shortest stretch kept unless told otherwise, s.
    public static let defaultMinimumDuration = 1.0

    public init(minimumDuration: Double = defaultMinimumDuration, thresholds: StillnessThresholds = StillnessThresholds(),
                maxBias: Double = AttitudeFilter.Parameters().maxBias, keeping: Int = .max) {
        self.keeping = max(1, keeping)
        self.thresholds = thresholds
        self.maxBias = maxBias
        self.minimumDuration = minimumDuration
        block = Block(start: 0, length: Int64(thresholds.blockLength * 1e9))
        stretches.reserveCapacity(min(self.keeping, 16))
    }

    /// Whether the board is still now (as of the last whole block).
    public var isStill: Bool { current != nil }
    /// The stretch under way, as far as it has come; nil while the board moves.
    public var ongoing: StillStretch? { current?.stretch }
    /// Seconds the board has been still so far; 0 while it moves.
    public var stillFor: Double { current?.stretch?.duration ?? 0 }

    /// Folds in one sample (in time order).
    public mutating func add(_ sample: MotionSample) {
        defer { lastTimestamp = sample.timestamp }
        guard let last = lastTimestamp, sample.timestamp > last, sample.timestamp - last < 1_000_000_000 else {
            // The first sample, or a gap or step back in time: nothing says the board kept still across it.
            finish()
            previous = nil
            block = Block(start: sample.timestamp, length: block.length)
            block.add(sample, against: nil, thresholds)
            return
        }
        if sample.timestamp >= block.start + block.length { closeBlock(next: sample.timestamp) }
        block.add(sample, against: previous, thresholds)
    }

    private mutating func closeBlock(next: Int64) {
        let means = block.means
        let steady = previous != nil && block.steady && block.count > 0
            && max(abs(means.rotation.x), abs(means.rotation.y), abs(means.rotation.z)) <= maxBias
        if !steady && current != nil && jolts < thresholds.joltBlocks {
            // A jolt (a tap on the table, a cable tugged): left out, and the
            // stretch goes on if the next block is still and agrees with it.
            // The readings are compared with the last still block meanwhile.
            jolts += 1
        } else {
            if !steady {
                finish()
            } else if let reference, !means.agrees(with: reference, thresholds) {
                finish()
                begin(means)
            } else if current == nil {
                begin(means)
            }
            if steady {
                current?.add(block)
                jolts = 0
            }
            previous = block.count > 0 ? means : nil
        }
        // Blocks keep their grid; a sample after a short gap starts the one it falls in.
        let length = block.length
        block = Block(start: block.start + length * max(1, (next - block.start) / length), length: length)
    }

    private mutating func begin(_ means: Block.Means) {
        reference = means
        current = Accumulator(start: block.first)
    }

    /// Ends the stretch under way, if any (at the end of a recording).
    public mutating func finish() {
        reference = nil
        jolts = 0
        guard let done = current else { return }
        current = nil
        guard let stretch = done.stretch, stretch.duration >= minimumDuration else { return }
        // Shifted within the capacity reserved: no allocation once full.
        if stretches.count == keeping { stretches.removeFirst() }
        stretches.append(stretch)
        found += 1
    }

    /// Forgets the stretches found and the one under way: a screen starting over.
    public mutating func reset() {
        current = nil
        reference = nil
        jolts = 0
        found = 0
        stretches.removeAll(keepingCapacity: true)
    }

    /// Every still stretch of `samples`, the last one finished at the end.
    public static func stretches(in samples: some Sequence<MotionSample>,
                                 minimumDuration: Double = defaultMinimumDuration) -> [StillStretch] {
        var finder = StillStretchFinder(minimumDuration: minimumDuration)
        for sample in samples { finder.add(sample) }
        finder.finish()
        return finder.stretches
    }
}

/// When `StillStretchFinder` calls the board still (see there for why each).
public struct StillnessThresholds: Sendable, Equatable {
    /// s.
    public var blockLength = 0.25
    /// Largest distance of a gyroscope reading from the previous block's mean, rad/s.
    public var gyroscopeDeviation = 2 * Double.pi / 180
    /// Largest distance of an accelerometer reading from the previous block's mean, m/s².
    public var accelerometerDeviation = 0.5
    /// Largest turn of the accelerometer's (or magnetometer's) mean direction within a stretch, rad.
    public var maximumTilt = 2 * Double.pi / 180
    /// Largest change of the gyroscope's mean within a stretch, rad/s.
    public var rateAgreement = 0.5 * Double.pi / 180
    /// Unsteady blocks in a row a stretch may leave out and go on: a jolt.
    /// Real IMUs lying still see them (BROAD's rest phases hold a reading
    /// off by more than 2 °/s in about one in a hundred), and a six-face
    /// calibration that lost a face to each would be refused for nothing.
    public var joltBlocks = 1
    public init() {}
}

/// One block of samples: its sums, and whether every reading stayed near the previous block's means.
private struct Block: Sendable {
    let start: Int64
    let length: Int64
    var first: Int64 = .max
    var acceleration = Moments()
    var rotation = Moments()
    var field = Moments()
    var steady = true
    var count: Int { max(acceleration.count, rotation.count) }

    init(start: Int64, length: Int64) {
        self.start = start
        self.length = length
    }

    struct Means: Sendable {
        var acceleration: Vector3
        var rotation: Vector3
        var field: Vector3
        var hasField: Bool

        func agrees(with reference: Means, _ t: StillnessThresholds) -> Bool {
            func angle(_ a: Vector3, _ b: Vector3) -> Double {
                let d = a.length * b.length
                return d > 0 ? acos(min(1, max(-1, a.dot(b) / d))) : 0
            }
            return angle(acceleration, reference.acceleration) <= t.maximumTilt
                && (rotation - reference.rotation).length <= t.rateAgreement
                && (!hasField || !reference.hasField || angle(field, reference.field) <= t.maximumTilt)
        }
    }

    var means: Means {
        Means(acceleration: acceleration.mean, rotation: rotation.mean, field: field.mean, hasField: field.count > 0)
    }

    mutating func add(_ sample: MotionSample, against previous: Means?, _ t: StillnessThresholds) {
        first = min(first, sample.timestamp)
        if sample.hasAcceleration {
            acceleration.add(sample.acceleration)
            if let previous, (sample.acceleration - previous.acceleration).length > t.accelerometerDeviation { steady = false }
        }
        if sample.hasRotationRate {
            rotation.add(sample.rotationRate)
            if let previous, (sample.rotationRate - previous.rotation).length > t.gyroscopeDeviation { steady = false }
        }
        if sample.hasMagneticField { field.add(sample.magneticField) }
    }
}

/// A stretch's sums, block by block, and its blocks' means for the uncertainty.
private struct Accumulator: Sendable {
    let start: Int64
    var end: Int64
    var acceleration = Moments()
    var rotation = Moments()
    var accelerationBlocks = Moments()
    var rotationBlocks = Moments()

    init(start: Int64) {
        self.start = start
        end = start
    }

    mutating func add(_ block: Block) {
        end = max(end, block.start + block.length)
        if block.acceleration.count > 0 {
            acceleration.merge(block.acceleration)
            accelerationBlocks.add(block.acceleration.mean)
        }
        if block.rotation.count > 0 {
            rotation.merge(block.rotation)
            rotationBlocks.add(block.rotation.mean)
        }
    }

    var stretch: StillStretch? {
        guard acceleration.count > 0 || rotation.count > 0 else { return nil }
        return StillStretch(start: start, end: end, accelerationCount: acceleration.count, rotationCount: rotation.count,
                            meanAcceleration: acceleration.mean, meanRotation: rotation.mean,
                            rotationUncertainty: Self.uncertainty(rotationBlocks, atLeast: rotation.whiteUncertainty),
                            accelerationUncertainty: Self.uncertainty(accelerationBlocks, atLeast: acceleration.whiteUncertainty),
                            accelerationSpread: acceleration.deviation)
    }

    /// The spread of the block means over √blocks, per axis, never below
    /// `floor`; `floor` alone with fewer than four blocks, too few to say.
    static func uncertainty(_ blocks: Moments, atLeast floor: Vector3) -> Vector3 {
        guard blocks.count >= 4 else { return floor }
        let u = blocks.whiteUncertainty
        return Vector3(max(u.x, floor.x), max(u.y, floor.y), max(u.z, floor.z))
    }
}

/// Running sums of a vector's readings.
struct Moments: Sendable {
    var count = 0
    var sum = Vector3.zero
    var sumOfSquares = Vector3.zero

    mutating func add(_ v: Vector3) {
        count += 1
        sum = sum + v
        sumOfSquares = sumOfSquares + Vector3(v.x * v.x, v.y * v.y, v.z * v.z)
    }

    mutating func merge(_ other: Moments) {
        count += other.count
        sum = sum + other.sum
        sumOfSquares = sumOfSquares + other.sumOfSquares
    }

    var mean: Vector3 { count > 0 ? sum / Double(count) : .zero }

    /// Per axis, the sample variance.
    var variance: Vector3 {
        guard count > 1 else { return .zero }
        let m = mean, n = Double(count)
        func v(_ s2: Double, _ m: Double) -> Double { max(0, (s2 - n * m * m) / (n - 1)) }
        return Vector3(v(sumOfSquares.x, m.x), v(sumOfSquares.y, m.y), v(sumOfSquares.z, m.z))
    }

    /// Per axis, σ/√n: the mean's uncertainty were the readings independent.
    var whiteUncertainty: Vector3 {
        guard count > 1 else { return .zero }
        let v = variance / Double(count)
        return Vector3(v.x.squareRoot(), v.y.squareRoot(), v.z.squareRoot())
    }

    /// Per axis, the readings' standard deviation.
    var deviation: Vector3 {
        let v = variance
        return Vector3(v.x.squareRoot(), v.y.squareRoot(), v.z.squareRoot())
    }
}
