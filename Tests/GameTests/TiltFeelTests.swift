// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import Game
import Handoff
import LibC
import MotionCore
import Testing
import TestSupport
import SystemCalls

/// The player's feel: what each setting does to the tilt that rolls the
/// ball, the Settings menu that changes it, and the file that keeps it.
@Suite("The player's feel")
struct TiltFeelTests {
    static func planar(_ v: Vector3) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
    static func tilt(degrees: Double, direction: Double = 0.6) -> Vector3 {
        let s = sin(degrees * .pi / 180) * standardGravity
        return Vector3(s * cos(direction), s * sin(direction), -cos(degrees * .pi / 180) * standardGravity)
    }

    @Test("as shipped it changes nothing, bit for bit")
    func standardIsIdentity() {
        var felt = FeltTilt(.standard)
        for g in [Vector3(1.25, -3.5, -9), Vector3(0, 0, -9.81), Vector3(-4.9, 2.2, -8.3)] {
            #expect(felt.apply(g, dt: 1.0 / 240) == g)
        }
    }

    @Test("sensitivity scales the tilt in the board's plane; inversion turns an axis round; z is left alone")
    func sensitivityAndInversion() {
        var felt = FeltTilt(TiltFeel(sensitivity: 2, invertX: true))
        let g = Vector3(1, -2, -9)
        #expect(felt.apply(g, dt: 0.01) == Vector3(-2, -4, -9))
        felt.feel = TiltFeel(invertY: true)
        #expect(felt.apply(g, dt: 0.01) == Vector3(1, 2, -9))
    }

    @Test("a dead zone of 5°: nothing inside it, a gentle start at its edge, a full tilt as strong as without it")
    func deadZone() {
        var felt = FeltTilt(TiltFeel(deadZone: 5))
        #expect(Self.planar(felt.apply(Self.tilt(degrees: 4.9), dt: 0.01)) == 0)
        let justPast = Self.planar(felt.apply(Self.tilt(degrees: 5.5), dt: 0.01))
        #expect(justPast > 0 && justPast < 0.1 * standardGravity)
        let full = Self.tilt(degrees: 90)
        #expect(abs(Self.planar(felt.apply(full, dt: 0.01)) - Self.planar(full)) < 1e-9)
        // The direction is kept.
        let out = felt.apply(Self.tilt(degrees: 20, direction: 0.6), dt: 0.01)
        #expect(abs(atan2(out.y, out.x) - 0.6) < 1e-9)
    }

    @Test("smoothing of 0.1 s: a step in tilt is reached as a first-order low-pass reaches it (63 % after 0.1 s)")
    func smoothing() {
        var felt = FeltTilt(TiltFeel(smoothing: 0.1))
        _ = felt.apply(.zero, dt: 1.0 / 240)
        var out = Vector3.zero
        for _ in 0 ..< 24 { out = felt.apply(Vector3(4, 0, -9), dt: 1.0 / 240) }
        #expect(abs(out.x / 4 - (1 - exp(-1.0))) < 0.02, "\(out.x / 4)")
    }

    @Test("a new feel starts its smoothing afresh, from the next tilt")
    func smoothingRestarts() {
        var felt = FeltTilt(TiltFeel(smoothing: 0.2))
        for _ in 0 ..< 100 { _ = felt.apply(Vector3(4, 0, -9), dt: 0.01) }
        felt.feel = TiltFeel(smoothing: 0.1)
        #expect(felt.apply(Vector3(-2, 1, -9), dt: 0.01) == Vector3(-2, 1, -9))
    }

    @Test("a ball on a tilted board gains twice the speed with sensitivity 2, none inside a dead zone")
    func physicsUsesIt() throws {
        let level = openRoom

        func speed(after feel: TiltFeel) -> Double {
            let ring = SPSCRing<MotionSample>(capacity: 64)
            let loop = PhysicsLoop(level: level, samples: ring, feel: feel)
            for i in 0 ..< 40 {
                ring.push(MotionSample(timestamp: Int64(i) * 5_000_000, acceleration: Vector3(-1, 0, 9.75), fields: .acceleration))
                loop.tick(elapsed: 4_166_667)
            }
            return abs(loop.snapshots.read().value.velocity.x)
        }
        let shipped = speed(after: .standard)
        #expect(shipped > 0)
        #expect(abs(speed(after: TiltFeel(sensitivity: 2)) / shipped - 2) < 0.01)
        #expect(speed(after: TiltFeel(deadZone: 10)) == 0, "a 6° tilt inside a 10° dead zone")
    }

    @Test("the menu's steps: sensitivity by even ratios to its ends, toggles turn over, a value between steps moves from the nearest")
    func steps() {
        var feel = TiltFeel.standard
        feel = feel.adjusted(.sensitivity, by: 1)
        #expect(feel.sensitivity == 1.4)
        for _ in 0 ..< 20 { feel = feel.adjusted(.sensitivity, by: 1) }
        #expect(feel.sensitivity == 4)
        #expect(feel.adjusted(.invertY, by: -1).invertY)
        #expect(TiltFeel(deadZone: 2.6).adjusted(.deadZone, by: 1).deadZone == 4)
        #expect(TiltFeel(sensitivity: 1.5, deadZone: 3, smoothing: 0.05, invertY: true).settingLabels
                == ["Sensitivity   1.50x", "Dead zone     3 deg", "Smoothing     0.05 s", "Invert x      off", "Invert y      on"])
    }

    @Test("the Settings menu: reached from the pause menu, left and right change a value, Enter too; Back returns to the pause menu")
    func settingsMenu() {
        var flow = GameFlow()
        flow.feel = TiltFeel(smoothing: 0.1)
        _ = flow.handle(.pause)
        while flow.menu?.selectedItem != .settings { _ = flow.handle(.down) }
        #expect(flow.handle(.select) == nil)
        #expect(flow.menu?.menu == .settings && flow.wantsPause)
        #expect(flow.handle(.right) == .changeFeel(TiltFeel(sensitivity: 1.4, smoothing: 0.1)))
        #expect(flow.handle(.left) == .changeFeel(TiltFeel(smoothing: 0.1)))
        #expect(flow.handle(.left) == .changeFeel(TiltFeel(sensitivity: 0.7, smoothing: 0.1)))
        _ = flow.handle(.down)
        _ = flow.handle(.down)
        _ = flow.handle(.down)
        #expect(flow.handle(.select) == .changeFeel(TiltFeel(sensitivity: 0.7, smoothing: 0.1, invertX: true)))
        #expect(flow.handle(.back) == nil)
        #expect(flow.menu?.menu == .paused && flow.menu?.selectedItem == .settings)
    }

    @Test("kept and read back; a key left out is as shipped; a bad file is set aside with its path and the game plays as shipped",
          arguments: [("{\"format\":\"tiltmaze-settings\",\"version\":1,\"sensitivity\":9}", "sensitivity must be between 0.25 and 4"),
                      ("{\"format\":\"tiltmaze-settings\",\"version\":1,\"dead_zone_deg\":-1}", "dead zone must be between 0 and 15"),
                      ("{\"format\":\"other\",\"version\":1}", "\"format\" should be"),
                      ("not json", "not JSON")])
    func store(bad: String, reason: String) throws {
        let dir = TemporaryDirectory()
        let store = FeelStore(directory: dir.path + "/tiltmaze")
        #expect(store.load().value == .standard && store.load().problem == nil)
        let feel = TiltFeel(sensitivity: 1.4, deadZone: 3, smoothing: 0.05, invertX: false, invertY: true)
        _ = try store.save(feel).get()
        #expect(store.load().value == feel)
        try Data("{\"format\":\"tiltmaze-settings\",\"version\":1,\"sensitivity\":2}".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load().value == TiltFeel(sensitivity: 2))
        try Data(bad.utf8).write(to: URL(fileURLWithPath: store.path))
        let loaded = store.load()
        #expect(loaded.value == .standard && loaded.maySave)
        let problem = try #require(loaded.problem)
        #expect(problem.hasPrefix("\(store.path) is not a settings file (") && problem.contains(reason), "\(problem)")
        #expect(problem.contains("kept it as \(store.path).bad"), "\(problem)")
        #expect(FileManager.default.fileExists(atPath: store.path + ".bad"))
    }

    @Test("the standard feel is in range, and out-of-range values are named")
    func ranges() {
        #expect(TiltFeel.standard.problem == nil)
        #expect(TiltFeel(smoothing: 0.6).problem == "smoothing must be between 0 and 0.5 seconds")
        #expect(TiltFeel(sensitivity: .nan).problem != nil)
        #expect(TiltFeel(sensitivity: 2, invertX: true).summary == "sensitivity 2.00×, x inverted")
    }
}
