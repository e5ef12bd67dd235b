// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Controls
import Foundation
import Handoff
import MotionCore
import MotionDevices
import Render
import Session
import SystemCalls
import Testing
import TestSupport
import Game

/// A recording's samples pushed a few at a time, as the test asks: a sensor
/// whose board does what the recording did (`CalibrationRecording`: known
/// errors on real BROAD noise), as fast as the screen's frames come.
final class FedSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `next`, `scaledByGravity` and the ring's producer
    // side belong to the test's thread, the only one that calls `feed`; the
    // loop under test only drains.
    let samples = SPSCRing<MotionSample>(capacity: 8192)
    let rate: Double
    let displayName = "recorded IMU"
    let calibrationIdentity: String? = nil
    var health: SourceHealth { .fine }
    var statusChanges: UInt64 { 0 }
    let mount: MountMatrix
    private let list: [MotionSample]
    private var next = 0

    /// Whether the accelerometer comes scaled by gravity, as an evdev one of resolution 0.
    var scaledByGravity = false

    init(_ recording: CalibrationRecording, mount: MountMatrix = .identity) {
        rate = recording.rate
        // What a source with this mount delivers: the chip's readings turned by it.
        list = recording.samples.map { sample in
            var s = sample
            s.acceleration = mount.apply(sample.acceleration)
            s.rotationRate = mount.apply(sample.rotationRate)
            return s
        }
        self.mount = mount
    }

    var scales: SensorScales? {
        var scales = SensorScales(accel: nil, gyro: nil, hasGyroscope: true, mount: mount)
        scales.accelerometerScaledByGravity = scaledByGravity
        return scales
    }
    var isDone: Bool { next >= list.count }
    func start() throws {}
    func stop() {}

    func feed(_ count: Int) {
        for _ in 0 ..< count where next < list.count {
            samples.push(list[next])
            next += 1
        }
    }
}

@Suite("Calibrations on demand: the screens")
struct OnDemandScreenTests {
    /// Runs the screen for `kind` on `source`, pressing s once the result is shown; the screen afterwards.
    static func run(_ kind: OnDemandCalibration, _ source: FedSource, pictures: String? = nil) throws -> (OnDemandScreen, [Panel]) {
        let loop = MotionModelLoop(model: OnDemandCalibrationModel(), samples: source.samples, rate: 100)
        let screen = OnDemandScreen(loop: loop, kind: kind, sensorName: source.displayName) {
            OnDemandCalibration.Delivery(source.scales)
        }
        var panels: [Panel] = []
        var saved = false
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            panels.append(panel)
            source.feed(60)
            if !saved, panel.items.count == 3, panel.lines.contains(where: { $0.hasPrefix("Save keeps") }) {
                saved = true
                return [.character(UInt8(ascii: "s"))]
            }
            return []
        }
        _ = try PanelLoop.run(screen, display: display, input: display, source: source, framePeriod: 2_000_000)
        #expect(!display.gaveUp, "no result shown: \(panels.last?.lines ?? [])")
        return (screen, panels)
    }

    @Test("gyroscope: the stillness bar fills, the bias put in is shown and chosen")
    func gyroscope() throws {
        let truth = Vector3(0.021, -0.033, 0.005)
        var r = try CalibrationRecording(gyroBias: truth)
        r.turn(from: CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 20), to: CalibrationRecording.flat)
        r.hold(CalibrationRecording.flat, seconds: 5)
        let (screen, panels) = try Self.run(.gyroscope, FedSource(r))
        guard case .gyroscope(let g)? = screen.chosen else {
            Issue.record("nothing chosen: \(panels.last?.lines ?? [])")
            return
        }
        #expect((g.bias - truth).length < 0.002)
        // The shown figures are an estimate from real noise over however
        // much stillness the screen had seen (more on a loaded machine), so
        // they are read back and held to the same bound, not to fixed digits.
        let shown = panels.compactMap { panel in
            panel.lines.first { $0.hasPrefix("Bias ") && $0.hasSuffix(" rad/s") }
        }.last
        let figures = shown.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        #expect(figures.count == 3, "no bias shown: \(panels.last!.lines)")
        if figures.count == 3 {
            #expect((Vector3(figures[0], figures[1], figures[2]) - truth).length < 0.002, "\(shown!)")
        }
    }

    @Test("accelerometer: the six faces tick off, and the bias and scale put in are shown and chosen")
    func accelerometer() throws {
        let truth = AccelerometerCalibration(bias: Vector3(0.9, -2.8, 1.6), scale: Vector3(1.02, 0.975, 1.03))
        var r = try CalibrationRecording(accelerometer: truth)
        r.hold(each: CalibrationRecording.sixFaces, seconds: 3)
        let (screen, panels) = try Self.run(.accelerometer, FedSource(r))
        guard case .accelerometer(let fit)? = screen.chosen else {
            Issue.record("nothing chosen: \(panels.last?.lines ?? [])")
            return
        }
        #expect((fit.calibration.bias - truth.bias).length < 0.02)
        #expect(panels.last!.lines.contains { $0.hasPrefix("[x] face up") && $0.contains("[x] face down") })
    }

    @Test("orientation: a sensor turned 90° about z, read with no mount matrix, gives its exact quarter turn")
    func orientation() throws {
        let mount = MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
        var r = try CalibrationRecording(mount: mount)
        r.hold(each: [CalibrationRecording.flat, CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 30)], seconds: 3)
        let (screen, panels) = try Self.run(.orientation, FedSource(r))
        #expect(screen.chosen == .orientation(mount), "\(panels.last?.lines ?? [])")
    }

    @Test("Save before the poses are held says what is missing and keeps the screen")
    func saveTooSoon() throws {
        var r = try CalibrationRecording()
        r.hold(CalibrationRecording.flat, seconds: 2)
        let source = FedSource(r)
        let loop = MotionModelLoop(model: OnDemandCalibrationModel(), samples: source.samples, rate: 100)
        let screen = OnDemandScreen(loop: loop, kind: .accelerometer, sensorName: "recorded IMU") { OnDemandCalibration.Delivery(source.scales) }
        var step = 0
        let display = RecordingDisplay { _, _ in [] }
        display.panelScript = { panel, _ in
            switch step {
            case 0: step = 1; return [.character(UInt8(ascii: "s"))]
            case 1 where panel.notice?.hasPrefix("Not yet: still to hold right edge up") == true:
                step = 2
                return [.character(UInt8(ascii: "q"))]
            default: return []
            }
        }
        _ = try PanelLoop.run(screen, display: display, input: display, source: source, framePeriod: 2_000_000)
        #expect(step == 2 && screen.chosen == nil)
    }

    @Test("an accelerometer scaled by gravity: the screen says there is nothing to calibrate, from the first frame to the last")
    func unitless() throws {
        var r = try CalibrationRecording()
        r.hold(each: CalibrationRecording.sixFaces, seconds: 2)
        let source = FedSource(r)
        source.scaledByGravity = true
        let loop = MotionModelLoop(model: OnDemandCalibrationModel(), samples: source.samples, rate: 100)
        let screen = OnDemandScreen(loop: loop, kind: .accelerometer, sensorName: "Nintendo Wii Remote Accelerometer") {
            OnDemandCalibration.Delivery(source.scales)
        }
        var model = OnDemandCalibrationModel()
        source.feed(r.samples.count)
        source.samples.drain { model.observe($0, motion: FusedMotion(), shake: nil) }
        model.step(dt: 0.01, gravity: .zero)
        for (label, snapshot) in [("start", OnDemandCalibrationModel.Snapshot()), ("faces-held", model.snapshot)] {
            let panel = screen.panel(snapshot, status: MotionStatus(), now: 0)
            #expect(panel.lines.contains { $0.hasPrefix("Nothing to calibrate: this") }, "\(panel.lines)")
            #expect(!panel.lines.contains { $0.hasPrefix("Save keeps") })
            let painter = PixelPanelPainter(width: 800, height: 480)
            _ = painter.paint(panel)
            try keep(painter.picture, "calibrate-accelerometer-unitless-\(label)-800x480")
        }
        // Save, with every face held, keeps nothing and says why; the screen stays.
        #expect(screen.handle(.character(UInt8(ascii: "s"))))
        #expect(screen.chosen == nil)
        #expect(screen.panel(model.snapshot, status: MotionStatus(), now: 1).notice?.hasPrefix("Nothing to save") == true)
    }

    @Test("a screen left open through more poses than it shows keeps the newest sixteen and counts every one")
    func manyPoses() throws {
        let truth = AccelerometerCalibration(bias: Vector3(0.4, -0.7, 0.3), scale: Vector3(1.01, 0.99, 1.02))
        var r = try CalibrationRecording(accelerometer: truth)
        // Twenty poses: the six faces, then fourteen between them.
        let between = (0 ..< 14).map { CalibrationRecording.pose(Vector3(1, Double($0 % 3) - 1, 0.5), degrees: 25 * Double($0) + 20) }
        r.hold(each: CalibrationRecording.sixFaces + between, seconds: 2)
        let all = StillStretchFinder.stretches(in: r.samples)
        try #require(all.count > OnDemandCalibrationModel.capacity + 1)
        var model = OnDemandCalibrationModel()
        for sample in r.samples {
            model.observe(sample, motion: FusedMotion(), shake: nil)
            model.step(dt: 0.01, gravity: .zero)
        }
        let shown = model.snapshot.finished
        // The last pose is still under way in the model (a recording's end finishes it for the finder).
        #expect(model.snapshot.found == all.count - 1)
        #expect(shown.count == OnDemandCalibrationModel.capacity)
        #expect(shown.map(\.start) == all.dropLast().suffix(OnDemandCalibrationModel.capacity).map(\.start))
    }

    @Test("the three screens as 800×480 pictures and on the Sense HAT, for a person to look at (TILTMAZE_PANEL_PNG_DIR)")
    func pictures() throws {
        var faces = try CalibrationRecording(accelerometer: AccelerometerCalibration(bias: Vector3(0.9, -2.8, 1.6), scale: Vector3(1.02, 0.975, 1.03)))
        faces.hold(each: CalibrationRecording.sixFaces, seconds: 3)
        var gyro = try CalibrationRecording(gyroBias: Vector3(0.021, -0.033, 0.005))
        gyro.hold(CalibrationRecording.flat, seconds: 4)
        var axes = try CalibrationRecording(mount: MountMatrix(Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1)))
        axes.hold(each: [CalibrationRecording.flat, CalibrationRecording.pose(Vector3(0, 1, 0), degrees: 30)], seconds: 3)
        // What each screen shows part of the way through: the model fed by hand, so every state is drawn.
        let partwayLines: [OnDemandCalibration: (String) -> Bool] = [
            .gyroscope: { $0.hasPrefix("Still [##") && !$0.hasPrefix("Still [####################]") },
            .accelerometer: { $0.hasPrefix("[x] right edge up  [x] left edge up") },
            .orientation: { $0 == "[x] flat, face up" },
        ]
        let notYet: [OnDemandCalibration: String] = [.accelerometer: "[ ] face down", .orientation: "[ ] right edge down"]
        for (kind, recording, partway) in [(OnDemandCalibration.gyroscope, gyro, 0.4), (.accelerometer, faces, 0.5), (.orientation, axes, 0.5)] {
            for (label, fraction) in [("partway", partway), ("done", 1.0)] {
                let source = FedSource(recording)
                let loop = MotionModelLoop(model: OnDemandCalibrationModel(), samples: source.samples, rate: 100)
                let screen = OnDemandScreen(loop: loop, kind: kind, sensorName: "mpu6050 on iio:device0") {
                    OnDemandCalibration.Delivery(source.scales)
                }
                var model = OnDemandCalibrationModel()
                source.feed(Int(Double(recording.samples.count) * fraction))
                source.samples.drain { model.observe($0, motion: FusedMotion(), shake: nil) }
                model.step(dt: 0.01, gravity: .zero)
                let panel = screen.panel(model.snapshot, status: MotionStatus(), now: 0)
                let painter = PixelPanelPainter(width: 800, height: 480)
                _ = painter.paint(panel)
                try keep(painter.picture, "calibrate-\(kind.rawValue)-\(label)-800x480")
                let matrix = Canvas(width: 8, height: 8)
                SenseHatView.paint(panel, into: matrix)
                #expect((0 ..< 64).contains { matrix[$0 % 8, $0 / 8] != RGB(0, 0, 0) }, "the matrix shows something")
                if label == "done" {
                    #expect(panel.lines.contains { $0.hasPrefix("Save keeps") }, "\(kind): \(panel.lines)")
                } else {
                    #expect(panel.lines.contains(where: partwayLines[kind]!), "\(kind) partway: \(panel.lines)")
                    if let missing = notYet[kind] { #expect(panel.lines.contains { $0.contains(missing) }, "\(kind) partway: \(panel.lines)") }
                    #expect(!panel.lines.contains { $0.hasPrefix("Save keeps") })
                }
            }
        }
    }
}
