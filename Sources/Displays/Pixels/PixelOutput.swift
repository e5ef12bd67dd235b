// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render

/// Where a display that composes pixels shows them: a framebuffer's memory
/// (`FbdevOutput`) or a pair of KMS buffers flipped at the vertical blank
/// (`KMSOutput`). The picture is composed once, at the output's size, by
/// `PixelGameView` or `PixelPanelPainter`; an output only copies the
/// rectangles that changed, converting to its pixel format.
public protocol PixelOutput: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// What to call it in a message: "/dev/fb0", "/dev/dri/card0 HDMI-A-1".
    var name: String { get }
    /// The screen's refresh period in ns when the output knows it (a KMS
    /// mode); nil lets the frame loop pick.
    var refreshPeriod: Int64? { get }
    /// Shows `picture`, of which only the `changed` rectangles differ from
    /// what the last call showed. Returns the bytes copied. Allocates nothing.
    func present(_ changed: UnsafeBufferPointer<PixelRect>, of picture: Canvas) -> Int
    /// The stamp (monotonic ns) of the newest sample in the frame presented
    /// next, for an output that knows when its frames reach the screen (a
    /// flip event) and so can tell how old the motion shown is. Ignored by default.
    func noteSampleTime(_ timestamp: Int64)
    /// The console is switching away: let the screen go until `acquire`.
    func release()
    /// The console is back: take the screen again. The caller then presents
    /// the whole picture.
    func acquire()
    /// Gives the screen back as it was found; safe to call more than once.
    func restore()
    /// A few words for the status line's figures (flips, missed vertical
    /// blanks), written into `text`; the count written. Nothing by default.
    func statistics(into text: UnsafeMutableBufferPointer<UInt8>) -> Int
    /// One line on the whole game for `play --stats` to print at the end
    /// (a KMS output's frames and flips); nil when there is nothing to say.
    var summary: String? { get }
}

extension PixelOutput {
    public var refreshPeriod: Int64? { nil }
    public func release() {}
    public func acquire() {}
    public func restore() {}
    public func noteSampleTime(_ timestamp: Int64) {}
    public func statistics(into text: UnsafeMutableBufferPointer<UInt8>) -> Int { 0 }
    public var summary: String? { nil }
}
