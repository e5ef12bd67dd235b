// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Fbdev

extension PixelFormat {
    /// The stored value of `color`.
    @inlinable
    public func encode(_ color: RGB) -> UInt32 { encode(red: color.r, green: color.g, blue: color.b) }

    /// The colour a stored value shows (each channel widened as a screen capture widens it).
    public func color(of value: UInt32) -> RGB {
        let c = decode(value)
        return RGB(c.red, c.green, c.blue)
    }
}
