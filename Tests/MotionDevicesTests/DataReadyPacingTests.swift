// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionDevices

@Suite("Pacing reads by a chip's data-ready bit")
struct DataReadyPacingTests {
    /// A chip making a sample every `chipPeriod` ns and keeping only the
    /// newest, looked at on `DataReadyPacing`'s schedule (plus `lateness`
    /// at each look) from 0 to `end`. Returns what was read, what the chip
    /// overwrote unread, and the pacing.
    func run(chipPeriod: Int64, nominal: Int64, end: Int64, lateness: (Int64) -> Int64 = { _ in 0 })
        -> (stamps: [Int64], arrivals: [Int64], lost: Int, looks: Int, pacing: DataReadyPacing) {
        var pacing = DataReadyPacing(period: nominal)
        var stamps: [Int64] = [], arrivals: [Int64] = []
        var lost = 0
        var pending: Int64?  // the arrival time of the unread sample the chip holds
        var nextArrival = chipPeriod / 3
        var look: Int64 = 0
        var looks = 0
        while look < end {
            looks += 1
            while nextArrival <= look {
                if pending != nil { lost += 1 }
                pending = nextArrival
                nextArrival += chipPeriod
            }
            let ready = pending != nil
            if let stamp = pacing.look(at: look, ready: ready) {
                stamps.append(stamp)
                arrivals.append(pending!)
                pending = nil
            }
            let next = pacing.nextLook(after: look, found: ready)
            look = next + lateness(next)
        }
        return (stamps, arrivals, lost, looks, pacing)
    }

    @Test("a chip on time: every sample read once, none lost, stamped a period apart, two status looks each")
    func onTime() {
        let period: Int64 = 4_201_681  // 238 Hz
        let r = run(chipPeriod: period, nominal: period, end: 2_000_000_000)
        #expect(r.lost == 0 && r.pacing.missed == 0)
        #expect(r.stamps.count == r.arrivals.count && r.stamps.count >= 470)
        // Two looks (one byte each) and two block reads per sample: four transfers.
        #expect(Double(r.looks) / Double(r.stamps.count) < 2.02, "\(r.looks) looks for \(r.stamps.count) samples")
        // An even grid, but for the nanosecond the looks' whole-number eighths of a period lose.
        let steps = Set(zip(r.stamps.dropFirst(), r.stamps).map { $0 - $1 })
        #expect(steps.allSatisfy { period - 2 ... period ~= $0 })
    }

    @Test("a chip whose clock runs 10 % fast or 3 % fast or slow: still every sample once, each stamp between its arrival and its read")
    func driftingClock() {
        let nominal: Int64 = 10_000_000
        for chip in [nominal * 90 / 100, nominal * 97 / 100, nominal * 103 / 100] {
            let r = run(chipPeriod: chip, nominal: nominal, end: 5_000_000_000)
            #expect(r.lost == 0 && r.pacing.missed == 0)
            #expect(r.stamps.count == r.arrivals.count)
            // Never before the sample can have come (the previous look), never after it was read.
            for (stamp, arrival) in zip(r.stamps, r.arrivals) {
                #expect(stamp >= arrival - nominal / 8 && stamp <= arrival + nominal / 4)
            }
            #expect(zip(r.stamps.dropFirst(), r.stamps).allSatisfy { $0 > $1 })
        }
    }

    @Test("looks that come late: the samples that certainly went unread are counted, never more than were lost")
    func lateLooks() {
        let period: Int64 = 1_000_000
        // Every 50th look comes 3.5 periods late (a thread not scheduled).
        var n = 0
        let r = run(chipPeriod: period, nominal: period, end: 1_000_000_000) { _ in
            n += 1
            return n % 50 == 0 ? 3_500_000 : 0
        }
        #expect(r.lost > 0)
        #expect(r.pacing.missed <= r.lost && r.pacing.missed >= r.lost - r.lost / 2)
        #expect(r.stamps.count + r.lost >= r.arrivals.count)
    }

    @Test("no new sample, no sample: a look that finds the bit clear gives nothing and looks again an eighth of a period later")
    func notReady() {
        var pacing = DataReadyPacing(period: 8_000)
        #expect(pacing.look(at: 100, ready: false) == nil)
        #expect(pacing.nextLook(after: 100, found: false) == 1_100)
        #expect(pacing.look(at: 1_100, ready: true) == 1_100)
        #expect(pacing.nextLook(after: 1_100, found: true) == 8_100)
        // A gap of between one and two periods may or may not have lost one: not counted.
        #expect(pacing.look(at: 1_100 + 15_000, ready: true) == 9_100)
        #expect(pacing.missed == 0)
        // Three whole periods without a look: two certainly lost.
        _ = pacing.look(at: 16_100 + 24_000, ready: true)
        #expect(pacing.missed == 2)
    }
}
