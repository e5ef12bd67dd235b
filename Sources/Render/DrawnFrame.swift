// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// What one `Display.draw` sent to the screen.
public struct DrawnFrame: Sendable, Equatable {
    /// Bytes written (escape codes, or pixels' bytes); 0 when nothing changed.
    public var bytes: Int
    /// The pieces they went in: rectangles copied to a framebuffer, writes to a terminal.
    public var pieces: Int

    public init(bytes: Int, pieces: Int? = nil) {
        self.bytes = bytes
        self.pieces = pieces ?? (bytes > 0 ? 1 : 0)
    }
}
