// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Displays
import Render
import Controls
import Game
import MotionCore
import Realtime
import SystemCalls

/// What the maze's loop and the panels' loop share: the frame clock, keys
/// acted on as they come until each frame's deadline, pad presses once a
/// frame, Ctrl-Z, and the sensor's status.
///
/// Each frame has an absolute deadline (60 Hz, or the display's refresh).
/// A late frame does not shift the ones after it; a stall skips frames
/// rather than drawing a burst; the time away on Ctrl-Z is not caught up.
struct FramePacer {
    let input: any KeyInput
    let source: any MotionSource
    let pads: [any PadSource]
    let context: GameInput.Context
    private var schedule: PeriodicSchedule
    /// The source's status count when its texts were last read; nil before the first read.
    private var statusSeen: UInt64?
    /// Why the sensor stopped producing, if it did: the loop ends then.
    private(set) var failure: String?
    /// Why no samples come for now (a controller away): the game pauses.
    private(set) var interruption: String?
    /// How the sensor reads now, if it had to change that (polling a silent trigger).
    private(set) var sourceNotice: String?

    init(input: any KeyInput, source: any MotionSource, pads: [any PadSource], context: GameInput.Context,
         framePeriod: Int64) {
        self.input = input
        self.source = source
        self.pads = pads
        self.context = context
        self.schedule = PeriodicSchedule(period: framePeriod, start: MonotonicClock.now(), maxCatchUp: 2)
    }

    var period: Int64 { schedule.period }

    /// Waits until the next frame is due, handing each key and press to
    /// `handle` as it comes. Returns when the frame starts and how late it
    /// woke, or nil when the loop is over: the input asked to quit,
    /// `ended` turned true, or the sensor failed (`failure` says why).
    /// `suspending` runs before a Ctrl-Z stop (pause what must not run meanwhile).
    mutating func nextFrame(ended: () -> Bool, suspending: () -> Void,
                            _ handle: (GameInput) -> Void) -> (start: Int64, lateness: Int64)? {
        let context = self.context
        while true {
            readStatus()
            if failure != nil || ended() || input.quitRequested { return nil }
            input.waitForInput(until: schedule.deadline) { key in
                if !ended(), let input = GameInput(key: key, in: context) { handle(input) }
            }
            if ended() || input.quitRequested { return nil }
            if input.suspendRequested {
                suspending()
                input.suspendUntilContinued()
                schedule = PeriodicSchedule(period: schedule.period, start: MonotonicClock.now(), maxCatchUp: 2)
                continue
            }
            let start = MonotonicClock.now()
            let lateness = schedule.woke(at: start)
            for pad in pads {
                pad.poll { if !ended() { handle(GameInput(button: $0, in: context)) } }
            }
            if ended() { return nil }
            readStatus()
            return (start, lateness)
        }
    }

    /// Reads the source's texts only when its status count moved: a frame
    /// that finds nothing new takes no lock and copies no string.
    private mutating func readStatus() {
        let count = source.statusChanges
        guard count != statusSeen else { return }
        statusSeen = count
        failure = source.failure
        interruption = source.interruption
        sourceNotice = source.notice
    }
}
