// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// One character cell of the terminal: a single-width scalar and its colours.
public struct TerminalCell: BitwiseCopyable, Sendable, Equatable {
    public var scalar: Unicode.Scalar
    public var foreground: RGB
    public var background: RGB

    @inlinable
    public init(scalar: Unicode.Scalar, foreground: RGB, background: RGB) {
        self.scalar = scalar
        self.foreground = foreground
        self.background = background
    }

    /// A space shows only its background, so its foreground is free: the
    /// encoder neither compares nor emits it.
    @inlinable
    public var isBlank: Bool { scalar == " " }

    /// What a fresh or resized screen holds.
    public static let blank = TerminalCell(scalar: " ", foreground: RGB(255, 255, 255), background: RGB(0, 0, 0))
}
