// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What the player did to the neutral tilt: sent from the thread that reads
/// the keys to the one that owns the tilt estimate, as a value.
public enum ReferenceChange: Sendable, Equatable, BitwiseCopyable {
    case none
    /// Take the way the board is held now as the neutral ("Calibrate").
    case captureCurrent
    /// Back to level, the correction staying on ("Zero").
    case level
    /// Turn the correction on or off, keeping the neutral.
    case correction(Bool)
    /// Use this neutral (one read back from a file).
    case use(TiltReference)

    /// The neutral after this change, given the one before and gravity as measured now.
    public func applied(to reference: TiltReference, measuredGravity: Vector3) -> TiltReference {
        switch self {
        case .none:
            return reference
        case .captureCurrent:
            // No reading yet: nothing to capture.
            return measuredGravity.length > 0 ? TiltReference(capturing: measuredGravity) : reference
        case .level:
            return .level
        case .correction(let on):
            var changed = reference
            changed.isEnabled = on
            return changed
        case .use(let given):
            return given
        }
    }
}
