// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A screen that cannot show every cell of the maze at one pixel or more.
public struct PictureTooSmall: Error, CustomStringConvertible, Equatable, Sendable {
    /// The screen, as the player knows it (a device node, or "framebuffer").
    public let path: String
    public let width: Int, height: Int
    /// The least size the maze needs.
    public let neededWidth: Int, neededHeight: Int

    public var description: String {
        "\(path): \(width)×\(height) is too small for this maze (it needs at least \(neededWidth)×\(neededHeight) pixels)"
    }
}
