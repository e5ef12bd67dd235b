// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC

/// Keeps the six-axis attitude's heading tied to magnetic north.
///
/// The six-axis attitude has an inclination (from gravity) and a heading
/// that is the gyroscope's alone, so it wanders. The magnetometer, turned
/// into that attitude's earth frame, points somewhere in its horizontal
/// plane; `northOffset` is where, low-passed with time constant `tau`. The
/// heading is corrected by turning about the vertical and nothing else, so
/// a magnetometer, however wrong, never tilts the board: the inclination is
/// exactly the six-axis one.
///
/// Fields near a board are rarely the Earth's alone (a speaker, a laptop, a
/// steel desk, a magnet in a case). A disturbance is told by the field's
/// strength and dip, which the Earth's field keeps wherever the board
/// points, compared with the field learnt so far (this is VQF's rule, Laidig
/// & Seel 2023, written anew; on BROAD's magnet trials it is what keeps
/// the heading within a few degrees):
///
/// - While the field agrees with the learnt one (strength within
///   `normTolerance`, dip within `dipTolerance`) it corrects the heading,
///   and the learnt field follows it slowly (`referenceTime`).
/// - While it does not, the heading is the gyroscope's alone, for up to
///   `maxRejectionTime`; after that it is corrected at a fraction of the
///   usual rate (`rejectionFactor`): a board that moved to another room
///   must find north again eventually.
/// - A field that stays self-consistent while the board turns (faster than
///   `minimumTurnRate`, so that a field moving with the board would show up
///   as a changing dip) for `newFieldTime` becomes the learnt field: the
///   board has moved next to a steel shelf, say, and stays there. The first
///   field is learnt after `firstFieldTime`.
///
/// Until the first field is learnt every reading counts as disturbed, and
/// since there is nothing yet to tell a disturbance by, it corrects at the
/// reduced rate from the start; the first readings are averaged with
/// weights 1, ½, ⅓, … until that is slower than `tau`, so the heading finds
/// north at once.
struct MagneticHeading: Sendable {
    let parameters: MagneticHeadingParameters
    /// Counter-clockwise angle about up from the six-axis frame's x to
    /// magnetic north (the field's horizontal part), rad, in (−π, π].
    private(set) var northOffset = 0.0
    /// Whether a field has been seen: `northOffset` means something.
    private(set) var hasNorth = false
    /// Whether the latest field is judged a disturbance.
    private(set) var isDisturbed = true
    /// The field's strength (µT) and dip (rad, positive below the horizon) as learnt, once learnt.
    private(set) var reference: FieldShape?
    /// The latest reading's shape, lightly smoothed.
    private var current = FieldShape(norm: 0, dip: 0)
    private var candidate = FieldShape(norm: 0, dip: 0)
    private var candidateTime = 0.0
    private var agreeingFor = 0.0
    /// How long the field has been ignored; it starts used up, since with
    /// no field learnt there is nothing to reject against (see `add`).
    private var rejectedFor: Double
    /// The 1/N weight of the first readings; 0 once the time constant takes over.
    private var startGain = 1.0
    private var lastTime: Int64?
    private var adoptNext = false

    struct FieldShape: Sendable, Equatable {
        var norm: Double
        var dip: Double
    }

    init(parameters: MagneticHeadingParameters) {
        self.parameters = parameters
        rejectedFor = parameters.maxRejectionTime
    }

    /// Folds in one magnetometer reading `earth` (µT) already turned into
    /// the six-axis earth frame, at `time`, while the board turns at
    /// `turnSpeed` rad/s (the gyroscope's, smoothed; 0 without one).
    mutating func add(earth field: Vector3, at time: Int64, turnSpeed: Double) {
        let horizontal = (field.x * field.x + field.y * field.y).squareRoot()
        let norm = field.length
        guard norm > 0, norm.isFinite else { return }
        let dt = lastTime.map { AttitudeFilter.step(from: $0, to: time) } ?? 0
        lastTime = max(lastTime ?? .min, time)
        let p = parameters
        let shape = FieldShape(norm: norm, dip: atan2(-field.z, horizontal))
        if hasNorth {
            let k = Self.gain(dt: dt, timeConstant: p.currentTime)
            current.norm += k * (shape.norm - current.norm)
            current.dip += k * (shape.dip - current.dip)
        } else {
            current = shape
        }
        if adoptNext {
            adoptNext = false
            current = shape
            reference = shape
            candidate = shape
            agreeingFor = p.minimumUndisturbedTime
        }
        judge(dt: dt, turnSpeed: turnSpeed)

        var k = Self.gain(dt: dt, timeConstant: p.tau)
        if isDisturbed {
            if rejectedFor < p.maxRejectionTime {
                rejectedFor += dt
                k = 0
            } else {
                k /= p.rejectionFactor
            }
        } else {
            rejectedFor = max(rejectedFor - p.rejectionFactor * dt, 0)
        }
        if startGain > 0 {
            k = max(k, startGain)
            startGain /= startGain + 1
            if startGain * p.tau < dt { startGain = 0 }
        }
        let disagreement = Self.wrapped(atan2(field.y, field.x) - northOffset)
        northOffset = Self.wrapped(northOffset + k * disagreement)
        hasNorth = true
    }

    /// Whether the current field is the learnt one, and whether a new one has become it.
    /// The sensor's zero has moved (`HardIronTracker` found a new offset),
    /// so the field learnt was seen through the old one. The fit that found
    /// the offset has shown the last readings to lie on one sphere while the
    /// board turned, the very test a new field must pass, so the next
    /// reading's field is learnt at once.
    mutating func zeroMoved() {
        adoptNext = true
    }

    /// Whether the latest reading was the learnt field's: worth learning from.
    var isTrusted: Bool { !isDisturbed && reference != nil }

    private mutating func judge(dt: Double, turnSpeed: Double) {
        let p = parameters
        if let learnt = reference, agrees(current, learnt) {
            agreeingFor += dt
            if agreeingFor >= p.minimumUndisturbedTime {
                isDisturbed = false
                let k = Self.gain(dt: dt, timeConstant: p.referenceTime)
                reference = FieldShape(norm: learnt.norm + k * (current.norm - learnt.norm),
                                       dip: learnt.dip + k * (current.dip - learnt.dip))
            }
        } else {
            agreeingFor = 0
            isDisturbed = true
        }

        guard agrees(current, candidate) else {
            candidate = current
            candidateTime = 0
            return
        }
        if turnSpeed >= p.minimumTurnRate { candidateTime += dt }
        let k = Self.gain(dt: dt, timeConstant: p.referenceTime)
        candidate.norm += k * (current.norm - candidate.norm)
        candidate.dip += k * (current.dip - candidate.dip)
        if isDisturbed && candidateTime >= (reference == nil ? p.firstFieldTime : p.newFieldTime) {
            reference = candidate
            isDisturbed = false
            agreeingFor = p.minimumUndisturbedTime
        }
    }

    private func agrees(_ a: FieldShape, _ b: FieldShape) -> Bool {
        abs(a.norm - b.norm) < parameters.normTolerance * b.norm && abs(a.dip - b.dip) < parameters.dipTolerance
    }

    /// The weight of a new value in a first-order low-pass of time constant `tau` after `dt`.
    static func gain(dt: Double, timeConstant tau: Double) -> Double {
        tau > 0 ? 1 - exp(-dt / tau) : 1
    }

    /// `angle` brought into (−π, π].
    static func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi } else if a <= -.pi { a += 2 * .pi }
        return a
    }
}

/// How `MagneticHeading` trusts the magnetometer (see there for why each).
public struct MagneticHeadingParameters: Sendable, Equatable {
    /// Time constant of the heading's pull towards the magnetometer, s.
    public var tau = 9.0
    /// Time constant of the smoothing of each reading's strength and dip, s.
    public var currentTime = 0.05
    /// How far the strength may be off the learnt one, as a fraction of it.
    public var normTolerance = 0.1
    /// How far the dip may be off the learnt one, rad.
    public var dipTolerance = 10 * Double.pi / 180
    /// How long a field must agree before it counts as undisturbed again, s.
    public var minimumUndisturbedTime = 0.5
    /// Time constant with which the learnt field follows an undisturbed one, s.
    public var referenceTime = 20.0
    /// How long a new self-consistent field must be seen, turning, to be learnt, s.
    public var newFieldTime = 20.0
    /// The same for the very first field, s.
    public var firstFieldTime = 5.0
    /// How fast the board must turn for that time to count, rad/s.
    public var minimumTurnRate = 20 * Double.pi / 180
    /// The longest the magnetometer is ignored as disturbed, s.
    public var maxRejectionTime = 60.0
    /// How much weaker the correction is after that.
    public var rejectionFactor = 2.0
    public init() {}
}
