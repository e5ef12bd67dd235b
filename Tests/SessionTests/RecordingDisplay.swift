// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import SystemCalls
import Controls
import Game
import Handoff
import MotionCore
import Realtime
import Displays
import Render
import Synchronization
import TestSupport

/// A `Display` that shows nothing: it records what the frame loop asks of
/// it, and types the keys a test script returns after each frame. It ends
/// the game itself if the script never does (a hang, reported as `gaveUp`).
final class RecordingDisplay: Display, KeyInput {
    struct Frame {
        var snapshot: WorldSnapshot
        var menu: MenuState?
    }

    /// Called after each drawn frame; the keys it returns arrive during the next wait.
    var script: (_ frame: Frame, _ index: Int) -> [Key]
    private(set) var frames: [Frame] = []
    private(set) var deadlines: [Int64] = []
    private(set) var notices: [String?] = []
    private(set) var statistics: [String] = []
    private(set) var gaveUp = false
    private var pending: [Key] = []
    private let frameLimit = Int(hangBound * 60)
    let refreshPeriod: Int64?
    var quitRequested: Bool { gaveUp }
    /// What a terminal says while it is too small for the maze (false), as the script sets it.
    var showsWholeMaze = true

    init(refreshPeriod: Int64? = nil, script: @escaping (_ frame: Frame, _ index: Int) -> [Key]) {
        self.refreshPeriod = refreshPeriod
        self.script = script
    }

    func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        deadlines.append(deadline)
        let keys = pending
        pending = []
        for key in keys { handle(key) }
        MonotonicClock.sleep(until: deadline)
    }

    func setNotice(_ text: String?) { notices.append(text) }

    /// Levels loaded and banners set, in order.
    private(set) var loaded: [(level: Level, banner: LevelBanner)] = []
    private(set) var banners: [LevelBanner] = []
    func load(_ level: Level, banner: LevelBanner) { loaded.append((level, banner)) }
    func setBanner(_ banner: LevelBanner) { banners.append(banner) }

    func restore() {}

    func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) {
        statistics.append(text.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    /// Panels drawn, in order; the script is called with the last game frame (or an empty one).
    private(set) var panels: [Panel] = []
    var panelScript: ((_ panel: Panel, _ index: Int) -> [Key])?

    func drawPanel(_ panel: Panel) -> DrawnFrame {
        panels.append(panel)
        if let panelScript { pending += panelScript(panel, panels.count - 1) }
        if panels.count >= frameLimit { gaveUp = true }
        return DrawnFrame(bytes: 0)
    }

    func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        let frame = Frame(snapshot: snapshot, menu: menu)
        frames.append(frame)
        pending += script(frame, frames.count - 1)
        if frames.count >= frameLimit { gaveUp = true }
        return DrawnFrame(bytes: 0)
    }
}

/// A pad whose presses a test queues.
final class ScriptedPad: PadSource {
    var queued: [PadButton] = []
    func poll(_ handle: (PadButton) -> Void) {
        let presses = queued
        queued = []
        presses.forEach(handle)
    }
}

/// A motion source a test controls: it sends a level board's reading on
/// each start and a tilted one on each nudge (so the frame loop treats it as
/// the simulated board), and its failure and interruption are set by the test.
final class ControlledSource: MotionSource, CommandedTilt, @unchecked Sendable {
    // @unchecked Sendable: start, stop, nudges and their counts belong to
    // the thread that runs the loop under test (the test's own); the
    // failure and interruption are ChangingTexts, read from any thread.
    let samples = SPSCRing<MotionSample>(capacity: 16)
    let rate = 100.0
    let displayName = "controlled source"
    let calibrationIdentity: String? = nil
    private let failureText = ChangingText()
    private let interruptionText = ChangingText()
    private(set) var started = 0, stopped = 0

    var health: SourceHealth {
        SourceHealth(failure: failureText.value, interruption: interruptionText.value, notice: nil, rejected: 0, retried: 0, failedSamples: 0)
    }
    var statusChanges: UInt64 { failureText.changeCount &+ interruptionText.changeCount }
    /// Ends it as a device that went away ends a source.
    func fail(_ why: String) { failureText.set(why) }
    /// Makes it wait, or (nil) go on, as a controller switched off and on again.
    func interrupt(_ why: String?) { interruptionText.set(why) }

    func start() throws {
        started += 1
        samples.push(MotionSample(timestamp: MonotonicClock.now(), acceleration: Vector3(0, 0, standardGravity),
                                  fields: .acceleration))
    }

    func stop() { stopped += 1 }

    /// Tilts 0.3 rad per step; the readings are the board's specific force,
    /// a quarter second of them 20 ms apart, so the low-pass settles on the new tilt.
    func nudge(right: Int, up: Int) {
        tilt.withLock { $0.roll += 0.3 * Double(right); $0.pitch += 0.3 * Double(up) }
        let (roll, pitch) = tilt.withLock { ($0.roll, $0.pitch) }
        let now = MonotonicClock.now()
        for i in 0..<12 {
            samples.push(MotionSample(timestamp: now + Int64(i) * 20_000_000,
                                      acceleration: .zero - TiltBoard.gravity(roll: roll, pitch: pitch), fields: .acceleration))
        }
    }

    func level() { tilt.withLock { $0 = (0, 0) } }

    private let tilt = Mutex<(roll: Double, pitch: Double)>((0, 0))
}
