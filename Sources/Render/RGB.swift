// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A 24-bit colour, three bytes flat, so canvases and cell grids can be plain
/// unsafe buffers that are copied with `memcpy` and never reference-counted.
public struct RGB: BitwiseCopyable, Sendable, Equatable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    @inlinable
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// `self` moved `fraction` (0…1) of the way towards `other`; used to
    /// precompute tinted pictures once instead of tinting every frame.
    @inlinable
    public func blended(towards other: RGB, fraction: Double) -> RGB {
        let f = min(max(fraction, 0), 1)
        @inline(__always) func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * f).rounded())
        }
        return RGB(mix(r, other.r), mix(g, other.g), mix(b, other.b))
    }
}
