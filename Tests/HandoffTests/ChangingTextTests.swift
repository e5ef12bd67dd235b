// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Handoff

@Suite("Changing text (a sensor's status, looked at every frame)")
struct ChangingTextTests {
    @Test("each set moves the count, so a reader that saw a count reads again only after a change")
    func countMoves() {
        let text = ChangingText()
        #expect(text.changeCount == 0 && text.value == nil)
        text.set("controller away")
        #expect(text.changeCount == 1 && text.value == "controller away")
        text.set(nil)
        #expect(text.changeCount == 2 && text.value == nil)
        // Setting the same text again still counts: the reader just reads it once more.
        text.set(nil)
        #expect(text.changeCount == 3)
    }
}
