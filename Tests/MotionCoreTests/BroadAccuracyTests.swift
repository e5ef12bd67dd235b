// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore
import TestSupport

/// The attitude filter on real recordings: windows of BROAD (rest, fast
/// rotation, slow and fast translation, combined motion, tapping, a
/// vibrating phone, a magnet), each judged against what VQF, the best
/// public six-axis filter, reaches on exactly the same samples
/// (`Tests/Fixtures/broad/reference.json`, made by
/// `Benchmarks/accuracy/broad_windows.py`).
@Suite("Attitude filter on BROAD's real recordings")
struct BroadAccuracyTests {
    static let windows = (try? BroadWindow.names()) ?? []

    /// The filter's "up" after each sample of `window`, from a fresh start.
    static func ups(_ window: BroadWindow, parameters: AttitudeFilter.Parameters = .init()) -> [Vector3] {
        var filter = AttitudeFilter(parameters: parameters)
        return window.samples.map { sample in
            filter.add(sample)
            return filter.up
        }
    }

    @Test("every window is there: rest, rotation, translation, combined, tapping, vibration, magnet")
    func windowsPresent() {
        #expect(Self.windows.count == 8, "\(Self.windows)")
    }

    @Test("inclination RMS within VQF's + 10 %, and the worst error within VQF's + 25 %", arguments: windows)
    func withinVQF(_ name: String) throws {
        let window = try BroadWindow(name)
        let vqf = try BroadWindow.reference(name, filter: "VQF online")
        let mine = window.score(Self.ups(window))
        #expect(mine.rmsAfter2s <= 1.1 * vqf.rmsAfter2s, "\(name): RMS \(mine.rmsAfter2s)° (VQF \(vqf.rmsAfter2s)°)")
        #expect(mine.rmsMovement <= 1.1 * vqf.rmsMovement, "\(name): in movement \(mine.rmsMovement)° (VQF \(vqf.rmsMovement)°)")
        #expect(mine.maxAfter2s <= 1.25 * vqf.maxAfter2s, "\(name): max \(mine.maxAfter2s)° (VQF \(vqf.maxAfter2s)°)")
    }

    @Test("the bounds catch a filter that trusts each reading sooner: a tenth of the averaging time fails them")
    func boundsBite() throws {
        var hasty = AttitudeFilter.Parameters()
        hasty.accelerationTime /= 10
        var failed: [String] = []
        for name in Self.windows {
            let window = try BroadWindow(name)
            let vqf = try BroadWindow.reference(name, filter: "VQF online")
            let theirs = window.score(Self.ups(window, parameters: hasty))
            if theirs.rmsAfter2s > 1.1 * vqf.rmsAfter2s || theirs.maxAfter2s > 1.25 * vqf.maxAfter2s { failed.append(name) }
        }
        // Every window with pushes in it (translation, combined, tapping, vibration) must give it away.
        for name in Self.windows where !name.contains("rotation") && !name.contains("magnet") {
            #expect(failed.contains(name), "\(name) let a hasty filter pass")
        }
    }
}
