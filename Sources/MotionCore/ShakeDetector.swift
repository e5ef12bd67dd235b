// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A shake: the moment the user acceleration (what the accelerometer felt
/// beyond gravity) first went past the threshold along one board axis.
public struct Shake: Sendable, Equatable, Hashable {
    public enum Axis: Int, Sendable, CaseIterable { case x, y, z }

    public var axis: Axis
    /// Whether the push was along the axis' positive direction.
    public var positive: Bool
    /// The user acceleration along `axis` at that moment, m/s² (signed).
    public var acceleration: Double
    /// Monotonic ns of the sample that crossed the threshold.
    public var timestamp: Int64

    /// 0 ... 5: +x, -x, +y, -y, +z, -z. The six ways a board can be shaken,
    /// as ColorTilt's six colours.
    public var direction: Int { axis.rawValue * 2 + (positive ? 0 : 1) }

    public init(axis: Axis, positive: Bool, acceleration: Double, timestamp: Int64) {
        self.axis = axis
        self.positive = positive
        self.acceleration = acceleration
        self.timestamp = timestamp
    }
}

/// Turns a stream of user accelerations into shake events.
///
/// The tutorials fire on any accelerometer axis past 1.3 g, which a board
/// lying still does by gravity alone on its z axis; here gravity is taken
/// out first (the attitude filter's or the low-pass's), so a shake is a shake
/// whichever way the board is held. One hand's shake is a back-and-forth
/// that crosses the threshold several times, so after an event nothing more
/// fires for `refractoryTime`, and not until the push has also fallen back
/// below `rearmFraction` of the threshold: a push held past the threshold
/// is one shake, not one every refractory period.
public struct ShakeDetector: Sendable {
    public struct Parameters: Sendable, Equatable {
        /// How hard a push must be along one axis, m/s² (1.3 g, as the tutorials).
        public var threshold = 1.3 * standardGravity
        /// Quiet time after an event, s.
        public var refractoryTime = 0.5
        /// The push must fall below this fraction of the threshold before
        /// another event may fire.
        public var rearmFraction = 0.5

        public init() {}
    }

    public var parameters: Parameters
    public private(set) var lastShake: Shake?
    private var armed = true

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// Looks at one sample's user acceleration; a `Shake` when one starts here.
    public mutating func add(userAcceleration a: Vector3, at timestamp: Int64) -> Shake? {
        // No array: this runs on the physics thread, which must not allocate.
        var axis = Shake.Axis.x
        var strongest = a.x
        if abs(a.y) > abs(strongest) { axis = .y; strongest = a.y }
        if abs(a.z) > abs(strongest) { axis = .z; strongest = a.z }
        if abs(strongest) < parameters.threshold * parameters.rearmFraction { armed = true }
        guard armed, abs(strongest) >= parameters.threshold else { return nil }
        if let last = lastShake, Double(timestamp &- last.timestamp) < parameters.refractoryTime * 1e9 {
            return nil
        }
        let shake = Shake(axis: axis, positive: strongest > 0,
                          acceleration: strongest, timestamp: timestamp)
        lastShake = shake
        armed = false
        return shake
    }
}
