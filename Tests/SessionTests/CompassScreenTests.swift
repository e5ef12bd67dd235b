// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import PNG
@testable import Session
import Foundation
import Controls
import Game
import Handoff
import MotionCore
import Realtime
import SystemCalls
@testable import Render

/// A board tumbling in the Earth's field, read through a magnetometer with
/// hard iron: each call to `feed` pushes the next few readings.
final class TumblingCompassSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `index` and the ring's producer side belong to the
    // test's thread, the only one that calls `feed`.
    let samples = SPSCRing<MotionSample>(capacity: 4096)
    let rate = 50.0
    let displayName = "tumbling compass"
    let calibrationIdentity: String? = nil
    var health: SourceHealth { .fine }
    var statusChanges: UInt64 { 0 }
    static let offset = Vector3(12, -5, 20)
    private var index = 0
    private let origin = MonotonicClock.now()

    func start() throws {}
    func stop() {}

    /// Pushes `count` readings 20 ms apart, heading round and round while pitch and roll swing through ±80°.
    func feed(_ count: Int) {
        for _ in 0 ..< count {
            let t = Double(index) / 50
            index += 1
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: 0.9 * t)
                * Quaternion(axis: Vector3(1, 0, 0), angle: 1.4 * sin(0.7 * t))
                * Quaternion(axis: Vector3(0, 1, 0), angle: 1.4 * sin(0.43 * t))
            samples.push(MotionSample(timestamp: origin + Int64(t * 1e9),
                                      acceleration: q.conjugate.rotate(Vector3(0, 0, standardGravity)),
                                      magneticField: q.conjugate.rotate(Vector3(20, 0, -43.6)) + Self.offset,
                                      fields: [.acceleration, .magneticField]))
        }
    }
}

@Suite("Compass screen: coverage fills as the board turns, Save keeps the fit")
struct CompassScreenTests {
    @Test("the directions fill in and the accuracy rises to high; s saves the offset the sensor has")
    func savesAFit() throws {
        let source = TumblingCompassSource()
        let loop = MotionModelLoop(model: CompassCalibration(fitInterval: 0.2), samples: source.samples, rate: 100)
        let screen = CompassScreen(loop: loop, sensorName: "tumbling compass", hasMagnetometer: true)
        var saved = false
        var shown: [String] = []
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            source.feed(20)
            shown = panel.lines
            if !saved, panel.lines.contains("Accuracy high") {
                saved = true
                return [.character(UInt8(ascii: "s"))]
            }
            return []
        }
        let failure = try PanelLoop.run(screen, display: display, input: display, source: source, framePeriod: 5_000_000)
        #expect(failure == nil)
        #expect(!display.gaveUp, "never reached high accuracy: \(shown)")
        let chosen = try #require(screen.chosen)
        #expect((chosen.offset - TumblingCompassSource.offset).length < 0.5, "offset \(chosen.offset)")
        #expect(chosen.accuracy == .high)
        // High needs 80 % of the directions: the bar says at least that.
        let covered = try #require(shown.first { $0.hasPrefix("Covered  [") })
        let percent = Int(covered.split(separator: " ").dropLast().last ?? "") ?? 0
        #expect(percent >= 80, "\(covered)")
    }

    @Test("Save before the fit is good enough says why and keeps the screen; a sensor without a magnetometer is told so")
    func refusesEarly() throws {
        let source = TumblingCompassSource()
        let loop = MotionModelLoop(model: CompassCalibration(), samples: source.samples, rate: 100)
        let screen = CompassScreen(loop: loop, sensorName: "tumbling compass", hasMagnetometer: true)
        var step = 0
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            switch step {
            case 0: step = 1; return [.character(UInt8(ascii: "s"))]
            case 1 where panel.notice?.hasPrefix("Not yet") == true: step = 2; return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        _ = try PanelLoop.run(screen, display: display, input: display, source: source, framePeriod: 5_000_000)
        #expect(!display.gaveUp && step == 2)
        #expect(screen.chosen == nil)

        let none = CompassScreen(loop: loop, sensorName: "simulated board", hasMagnetometer: false)
        let panel = none.panel(CompassCalibration.Snapshot(), status: MotionStatus(), now: 0)
        #expect(panel.lines.first == "This sensor has no magnetometer.")
    }

    @Test("the layers show each covered direction once: all 26 filled make three full grids with the board in the middle")
    func layers() {
        let all = CompassScreen.layers(UInt32((1 << 26) - 1))
        #expect(all == ["below   level   above", "# # #   # # #   # # #", "# # #   # o #   # # #", "# # #   # # #   # # #"])
        let none = CompassScreen.layers(0)
        #expect(none[2] == ". . .   . o .   . . .")
        // Straight up (0, 0, 1) is one direction: the middle of "above".
        let up = CompassCalibrator.directions.firstIndex { $0.z > 0.99 }!
        #expect(CompassScreen.layers(1 << UInt32(up))[2] == ". . .   . o .   . # .")
    }

    @Test("the screen as a framebuffer shows it, for a person to look at (TILTMAZE_PANEL_PNG_DIR)")
    func picture() throws {
        let source = TumblingCompassSource()
        let loop = MotionModelLoop(model: CompassCalibration(), samples: source.samples, rate: 100)
        let screen = CompassScreen(loop: loop, sensorName: "i2c LSM9DS1 (Sense HAT) on /dev/i2c-1", hasMagnetometer: true)
        var model = CompassCalibration()
        for _ in 0 ..< 40 { source.feed(20) }
        source.samples.drain { model.observe($0, motion: FusedMotion(), shake: nil) }
        model.fit()
        source.feed(7)
        source.samples.drain { model.observe($0, motion: FusedMotion(), shake: nil) }
        let panel = screen.panel(model.snapshot, status: MotionStatus(), now: 0)
        #expect(panel.lines.contains { $0.hasPrefix("Accuracy ") })
        #expect(panel.square != nil, "the latest reading's direction is shown")
        let painter = PixelPanelPainter(width: 800, height: 480)
        _ = painter.paint(panel)
        try keep(painter.picture, "compass-800x480")
    }
}

/// Writes the picture where a person can look at it (`TILTMAZE_PANEL_PNG_DIR`), when asked.
func keep(_ canvas: Canvas, _ name: String) throws {
    guard let dir = ProcessInfo.processInfo.environment["TILTMAZE_PANEL_PNG_DIR"] else { return }
    var bytes: [UInt8] = []
    for y in 0 ..< canvas.height { for x in 0 ..< canvas.width { let p = canvas[x, y]; bytes += [p.r, p.g, p.b] } }
    try PNGImage(width: canvas.width, height: canvas.height, pixels: bytes).write(to: "\(dir)/\(name).png")
}
