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

    @Test("every window is there: rest, rotation, translation, combined, tapping, vibration, two magnets")
    func windowsPresent() {
        #expect(Self.windows.count == 9, "\(Self.windows)")
        #expect(Self.windows.filter { $0.contains("magnet") }.count >= 2, "\(Self.windows)")
    }

    /// The filter's attitude in `frame` after each sample of `window`, from a fresh start.
    static func attitudes(_ window: BroadWindow, in frame: AttitudeReferenceFrame,
                          parameters: AttitudeFilter.Parameters = .init()) -> [Quaternion] {
        var filter = AttitudeFilter(parameters: parameters)
        return window.samples.map { sample in
            filter.add(sample)
            return filter.attitude(in: frame)
        }
    }

    /// Windows where TiltMaze's heading misses the bound, and why. The test
    /// fails if one of them stops missing, so this list stays true.
    static let knownHeadingMisses = [
        // A vibrating phone lies on the IMU: its iron rides with the board, so the field's
        // strength swings 40–48 µT as the board turns, and every nine-axis filter's heading
        // walks 7° over the window while the gyroscope's holds within 1.5°. VQF starts
        // 0.4° nearer; the offset is learnt only after the window ends.
        "26_phone_vibration_A.broadwin",
    ]

    @Test("nine axes: heading RMS within VQF's (with its magnetometer) × 1.1 + 0.1°", arguments: windows)
    func headingWithinVQF(_ name: String) throws {
        let window = try BroadWindow(name)
        let vqf = try BroadWindow.headingReference(name, filter: "VQF online 9D")
        let mine = window.headingRMS(Self.attitudes(window, in: .xMagneticNorthZVertical))
        withKnownIssue("\(name) is a known miss (see knownHeadingMisses)") {
            #expect(mine <= 1.1 * vqf + 0.1, "\(name): heading RMS \(mine)° (VQF \(vqf)°)")
        } when: {
            Self.knownHeadingMisses.contains(name)
        }
    }

    @Test("the heading bound bites: a filter that takes in every field at once fails it on both magnet windows")
    func headingBoundBites() throws {
        var credulous = AttitudeFilter.Parameters()
        credulous.heading.normTolerance = .infinity
        credulous.heading.dipTolerance = .infinity
        credulous.heading.tau = 1
        credulous.hardIron.isEnabled = false
        let magnets = Self.windows.filter { $0.contains("magnet") }
        #expect(magnets.count >= 2)
        for name in magnets {
            let window = try BroadWindow(name)
            let vqf = try BroadWindow.headingReference(name, filter: "VQF online 9D")
            let theirs = window.headingRMS(Self.attitudes(window, in: .xMagneticNorthZVertical, parameters: credulous))
            #expect(theirs > 1.1 * vqf + 0.1, "\(name): a credulous filter's \(theirs)° passes VQF's \(vqf)°")
        }
    }

    @Test("nine axes leave the inclination as six axes have it", arguments: windows)
    func inclinationUnchanged(_ name: String) throws {
        let window = try BroadWindow(name)
        let nine = window.score(Self.ups(window))
        var sixAxes = window
        sixAxes.dropMagnetometer()
        let six = window.score(Self.ups(sixAxes))
        #expect(nine.rmsMovement == six.rmsMovement && nine.maxAfter2s == six.maxAfter2s,
                "\(name): \(nine) with the magnetometer, \(six) without")
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
