// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Session
import Controls
import Game
import MotionCore
@testable import Render
import Handoff

@Suite("Panel loop: the calibrate and ColorTilt screens driven by keys and pads")
struct PanelLoopTests {
    @Test("calibrate: tilt, c takes the neutral and says so, the square is recentred and stays; o turns it off; q ends")
    func calibrate() throws {
        let source = ControlledSource()
        let loop = MotionModelLoop(model: CalibrationSquare(), samples: source.samples, rate: 100)
        let screen = CalibrateScreen(loop: loop, sensorName: "controlled", board: source)
        var step = 0
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            switch step {
            case 0: step = 1; return [.character(UInt8(ascii: "d"))]   // right edge down 0.3 rad
            case 1 where panel.lines.contains { $0.hasPrefix("Tilt from neutral: 17.") }: step = 2; return [.character(UInt8(ascii: "c"))]
            case 2 where panel.notice?.hasPrefix("Neutral now 17.") == true: step = 3; return []
            case 3 where panel.lines.contains("Tilt from neutral: 0.0°"): step = 4; return [.character(UInt8(ascii: "o"))]
            case 4 where panel.lines.contains("Correction: off (the neutral is kept)"): step = 5; return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        let failure = try PanelLoop.run(screen, display: display, input: display, source: source, framePeriod: 5_000_000)
        #expect(failure == nil)
        #expect(!display.gaveUp, "stopped at step \(step): \(display.panels.last.map { "\($0.lines)" } ?? "")")
        let last = try #require(display.panels.last)
        #expect(last.items == ["Calibrate       c", "Zero            z", "Correction on   o", "Done            q"])
        let status = loop.status.read().value
        #expect(!status.calibration.reference.isEnabled && abs(status.calibration.reference.angleFromLevel - 0.3) < 0.01)
        #expect(source.started == 1 && source.stopped == 1)
    }

    @Test("calibrate with a pad: D-pad down to Zero, south chooses it, east leaves")
    func calibrateWithPad() throws {
        let source = ControlledSource()
        let loop = MotionModelLoop(model: CalibrationSquare(), samples: source.samples, rate: 100)
        let screen = CalibrateScreen(loop: loop, sensorName: "controlled", board: nil)
        let pad = ScriptedPad()
        var step = 0
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            switch step {
            case 0: step = 1; pad.queued = [.down]
            case 1 where panel.selected == 1: step = 2; pad.queued = [.south]
            case 2 where panel.notice == "Neutral now level": step = 3; pad.queued = [.east]
            default: break
            }
            return []
        }
        _ = try PanelLoop.run(screen, display: display, input: display, source: source, pads: [pad], framePeriod: 5_000_000)
        #expect(!display.gaveUp, "stopped at step \(step)")
        #expect(display.panels.last?.hints == CalibrateScreen.hints)
    }

    @Test("ColorTilt: a pad's D-pad switches the sensors; the arena is the colour at its intensity; a failing sensor ends it with the reason")
    func colorTilt() throws {
        let source = ControlledSource()
        let loop = MotionModelLoop(model: ColorTilt(), samples: source.samples, rate: 100)
        let screen = ColorTiltScreen(loop: loop, sensorName: "controlled", board: nil, shaker: nil)
        let pad = ScriptedPad()
        var step = 0
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            switch step {
            case 0: step = 1; pad.queued = [.left]
            case 1 where panel.lines.contains { $0.hasPrefix("accelerometer off (a)") }:
                step = 2
                // Both off now shows the colour (red, the first) at full strength.
                pad.queued = [.right]
            case 2 where panel.arena == ColorTiltScreen.colors[0]:
                step = 3
                source.fail("controlled source unplugged")
            default: break
            }
            return []
        }
        let failure = try PanelLoop.run(screen, display: display, input: display, source: source, pads: [pad], framePeriod: 5_000_000)
        #expect(!display.gaveUp, "stopped at step \(step): \(display.panels.last?.lines ?? [])")
        #expect(failure == "controlled source unplugged")
        #expect(display.panels.last?.lines.contains("gyroscope: this sensor has none") == true)
    }
}
