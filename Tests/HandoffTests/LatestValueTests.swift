// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Handoff

@Suite("LatestValue")
struct LatestValueTests {
    @Test("before anything is published, read returns the initial value, not marked new")
    func initialValue() {
        let v = LatestValue(7)
        let r = v.read()
        #expect(r.value == 7)
        #expect(r.isNew == false)
    }

    @Test("read returns the newest published value once as new, then again as not new")
    func newestWins() {
        let v = LatestValue(0)
        v.publish(1)
        v.publish(2)
        v.publish(3)
        #expect(v.read() == (3, true))
        #expect(v.read() == (3, false))
        v.publish(4)
        #expect(v.read() == (4, true))
    }

    @Test("a reader and a writer on two threads never see a torn or older value")
    func concurrent() {
        let v = LatestValue(Stamped(0))
        let total: UInt64 = 2_000_000
        let writer = Thread2 {
            for n in 1...total { v.publish(Stamped(n)) }
        }
        var last: UInt64 = 0
        var torn = 0, backwards = 0
        while last < total {
            let (s, _) = v.read()
            if !s.isConsistent { torn += 1 }
            if s.words.0 < last { backwards += 1 }
            last = s.words.0
        }
        writer.join()
        #expect(torn == 0)
        #expect(backwards == 0)
        #expect(v.read().value.words.0 == total)
    }
}
