// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// Which of a level's pellets are still there: a bit per pellet, inline, so
/// the world can eat one and a snapshot can carry them all without touching
/// the heap.
public struct PelletSet: BitwiseCopyable, Sendable, Equatable {
    /// Pellets a set can hold (four 64-bit words).
    public static let capacity = 256
    @usableFromInline var words: InlineArray<4, UInt64> = .init(repeating: 0)

    public init() {}

    /// Pellets 0..<count, all present.
    public init(all count: Int) {
        precondition(count >= 0 && count <= Self.capacity)
        for w in 0 ..< 4 {
            let bits = min(max(count - w * 64, 0), 64)
            words[w] = bits == 64 ? .max : (UInt64(1) << UInt64(bits)) &- 1
        }
    }

    @inlinable public func contains(_ pellet: Int) -> Bool {
        words[pellet >> 6] & (UInt64(1) << UInt64(pellet & 63)) != 0
    }

    /// Takes `pellet` out; whether it was there.
    @discardableResult
    public mutating func remove(_ pellet: Int) -> Bool {
        let mask = UInt64(1) << UInt64(pellet & 63)
        guard words[pellet >> 6] & mask != 0 else { return false }
        words[pellet >> 6] &= ~mask
        return true
    }

    public var count: Int {
        words[0].nonzeroBitCount + words[1].nonzeroBitCount + words[2].nonzeroBitCount + words[3].nonzeroBitCount
    }

    public var isEmpty: Bool { words[0] | words[1] | words[2] | words[3] == 0 }

    public static func == (a: PelletSet, b: PelletSet) -> Bool {
        a.words[0] == b.words[0] && a.words[1] == b.words[1] && a.words[2] == b.words[2] && a.words[3] == b.words[3]
    }
}
