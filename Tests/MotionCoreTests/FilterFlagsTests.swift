// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Foundation
import MotionCore
import Testing
import TestSupport

/// The attitude filter's own flags (`restDetected`, `magneticDisturbance`)
/// side by side with VQF's (`getRestDetected`, `getMagDistDetected`) on two
/// BROAD windows cut for them (`Tests/Fixtures/broad/flags/`): trial 05, a
/// slow rotation between two still breaks, and trial 28, turning in the
/// Earth's field and then held next to a magnet. VQF's flags, per half
/// second, are in the folder's `reference.json`.
struct FilterFlagsTests {
    struct Reference {
        let rest: [Double], disturbance: [Double], fieldNorm: [Double], firstFieldSample: Int, binFirstSample: [Int]
    }

    static func reference(_ window: String) throws -> Reference {
        let url = BroadWindow.directory.appendingPathComponent("flags/reference.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let w = try #require((json["windows"] as? [String: Any])?[window] as? [String: Any])
        return Reference(rest: w["vqf_rest_detected"] as! [Double], disturbance: w["vqf_mag_dist_detected"] as! [Double],
                         fieldNorm: w["field_norm_ut"] as! [Double], firstFieldSample: w["vqf_first_field_sample"] as! Int,
                         binFirstSample: w["bin_first_sample"] as! [Int])
    }

    /// TiltMaze's flags, the fraction of each bin's samples they are set in.
    static func flags(_ window: String, bins: [Int]) throws -> (rest: [Double], disturbance: [Double]) {
        let w = try BroadWindow("flags/" + window)
        var processor = MotionProcessor(referenceFrame: .xMagneticNorthZVertical)
        var rest = [Double](repeating: 0, count: bins.count), disturbance = rest, count = rest
        for (i, sample) in w.samples.enumerated() {
            let (motion, _) = processor.add(sample)
            let bin = (bins.lastIndex { $0 <= i }) ?? 0
            count[bin] += 1
            if motion.restDetected { rest[bin] += 1 }
            if motion.magneticDisturbance { disturbance[bin] += 1 }
        }
        return (zip(rest, count).map { $0 / $1 }, zip(disturbance, count).map { $0 / $1 })
    }

    /// The share of bins where the two agree (both mostly set, or both mostly not).
    static func agreement(_ a: ArraySlice<Double>, _ b: ArraySlice<Double>) -> Double {
        Double(zip(a, b).filter { ($0 >= 0.5) == ($1 >= 0.5) }.count) / Double(a.count)
    }

    @Test("restDetected agrees with VQF's in every half second but the edges: at rest in the breaks, never while the board turns",
          arguments: ["05_slow_rotation_with_breaks_B.broadwin", "28_stationary_magnet_A_late.broadwin"])
    func rest(_ window: String) throws {
        let vqf = try Self.reference(window)
        let ours = try Self.flags(window, bins: vqf.binFirstSample)
        let agreed = Self.agreement(ours.rest[...], vqf.rest[...])
        #expect(agreed >= 0.95, "\(window): rest agrees with VQF in \(Int(agreed * 100)) % of the half seconds")
        #expect(ours.rest.contains { $0 == 1 } && ours.rest.contains { $0 == 0 }, "both at rest and not, somewhere")
    }

    @Test("magneticDisturbance: set while the board is held next to the magnet, as VQF's; clear while it turns in the Earth's field")
    func magnet() throws {
        let window = "28_stationary_magnet_A_late.broadwin"
        let vqf = try Self.reference(window)
        let ours = try Self.flags(window, bins: vqf.binFirstSample)
        // Compared from the half second VQF first accepted a field: before it, VQF reports every reading
        // disturbed (it has nothing to judge by) and TiltMaze reports none (docs: no field, no disturbance).
        let from = (vqf.binFirstSample.lastIndex { $0 <= vqf.firstFieldSample } ?? 0) + 1
        let agreed = Self.agreement(ours.disturbance[from...], vqf.disturbance[from...])
        #expect(agreed >= 0.95, "disturbance agrees with VQF in \(Int(agreed * 100)) % of the half seconds after its first field")
        // The magnet, told by the data: the half seconds whose field is far stronger than the window's
        // usual one; its approach (the field weaker first, as the magnet's opposes the Earth's) takes up to 2 s before.
        let usual = vqf.fieldNorm.sorted()[vqf.fieldNorm.count / 2]
        let near = vqf.fieldNorm.indices.filter { vqf.fieldNorm[$0] > 1.3 * usual }
        try #require(near.count >= 3, "the window holds the magnet's pass")
        let set = near.filter { ours.disturbance[$0] >= 0.5 }.count
        #expect(set * 4 >= near.count * 3, "near the magnet: \(near.map { ours.disturbance[$0] })")
        let approach = near.first! - 4
        #expect(ours.disturbance[from ..< approach].allSatisfy { $0 == 0 }, "turning in the Earth's field: no disturbance")
        #expect(!ours.disturbance[..<from].contains { $0 > 0 }, "none before a field was learnt")
    }

    @Test("no magnetometer, no disturbance: the flag stays clear on a six-axis window")
    func sixAxis() throws {
        var w = try BroadWindow("flags/28_stationary_magnet_A_late.broadwin")
        w.dropMagnetometer()
        var processor = MotionProcessor()
        #expect(!w.samples.contains { processor.add($0).motion.magneticDisturbance })
    }
}
