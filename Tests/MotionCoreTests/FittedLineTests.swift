// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import MotionCore

@Suite("A line of fields fitted to a width")
struct FittedLineTests {
    let fields = [
        FittedLine.Field(priority: 0, "accel +0.000 +0.000 +9.807 m/s²", "a +0.00 +0.00 +9.81"),
        FittedLine.Field(priority: 2, "rate 200.0 Hz", "200 Hz"),
        FittedLine.Field(priority: 1, "gyro +0.000 +0.000 +0.000 rad/s", "g +0.00 +0.00 +0.00"),
        FittedLine.Field(priority: 3, "dropped 0", "drop 0"),
    ]

    @Test("wide enough: the fullest forms, three spaces apart")
    func wide() {
        let line = FittedLine.fit(fields, width: 200)
        #expect(line == "accel +0.000 +0.000 +9.807 m/s²   rate 200.0 Hz   gyro +0.000 +0.000 +0.000 rad/s   dropped 0")
    }

    @Test("narrower: all fields shorten together before any is left out; then the least needed go first, the order kept")
    func narrower() {
        let full = FittedLine.fit(fields, width: 200).count
        #expect(FittedLine.fit(fields, width: full - 1) == "a +0.00 +0.00 +9.81  200 Hz  g +0.00 +0.00 +0.00  drop 0")
        #expect(FittedLine.fit(fields, width: 48) == "a +0.00 +0.00 +9.81  200 Hz  g +0.00 +0.00 +0.00")
        #expect(FittedLine.fit(fields, width: 40) == "a +0.00 +0.00 +9.81  g +0.00 +0.00 +0.00")
        #expect(FittedLine.fit(fields, width: 25) == "a +0.00 +0.00 +9.81")
    }

    @Test("every width gets a line no wider than it", arguments: Array(0 ... 120))
    func neverWider(width: Int) {
        #expect(FittedLine.fit(fields, width: width).unicodeScalars.count <= width)
    }

    @Test("a field too wide alone is cut, ending in an ellipsis")
    func cut() {
        #expect(FittedLine.fit(fields, width: 10) == "a +0.00 +…")
    }
}
