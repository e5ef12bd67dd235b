// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Displays
import Render
import Controls
import Game
import MotionCore
import Realtime
import SystemCalls
import Handoff

/// A screen that is not the maze, as the frame loop is for the maze: the
/// sensor and the model's threads running, and this thread taking keys and
/// pad presses until each frame's deadline, then drawing the newest state
/// as a `Panel`.
public protocol PanelScreen: AnyObject {
    associatedtype Model: MotionModel
    var loop: MotionModelLoop<Model> { get }
    /// Acts on a key or press (mapped for a panel); false ends the screen.
    func handle(_ input: GameInput) -> Bool
    /// What to draw for the model's newest state.
    func panel(_ snapshot: Model.Snapshot, status: MotionStatus, now: Int64) -> Panel
}

public enum PanelLoop {
    /// Runs `screen` until it ends, the display asks to, or the sensor fails
    /// (its reason is returned). Starts and stops the sensor and the model.
    public static func run<S: PanelScreen>(_ screen: S, display: any Display, input: any KeyInput,
                                           source: any MotionSource, pads: [any PadSource] = [],
                                           framePeriod: Int64? = nil) throws -> String? {
        try source.start()
        defer { source.stop() }
        try screen.loop.start()
        defer { screen.loop.stop() }
        var pacer = FramePacer(input: input, source: source, pads: pads, context: .panel,
                               framePeriod: framePeriod ?? display.refreshPeriod ?? FrameLoop.defaultFramePeriod)
        var running = true
        while let frame = pacer.nextFrame(ended: { !running }, suspending: {}, { running = screen.handle($0) }) {
            let snapshot = screen.loop.snapshots.read().value
            let status = screen.loop.status.read().value
            display.drawPanel(screen.panel(snapshot, status: status, now: frame.start))
        }
        return pacer.failure
    }
}
