// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// What the status line says after the level's title, whatever draws it (the
/// terminal's cells or the framebuffer's font), so the two never disagree:
/// `12.3 s  best 9.87 s  lives 3  score 40  pellets 5`, then `  PAUSED`
/// while paused, unless a notice (a controller gone away) takes that place.
/// Written into the caller's `ByteWriter`: no allocation.
public enum StatusLineText {
    /// What stands between the sensor's name and the screen's in the
    /// status line's label: a screen short of room drops what follows it.
    public static let labelSeparator = " · "

    static func figures(_ snapshot: WorldSnapshot, best: Double?, hasNotice: Bool, into w: inout ByteWriter) {
        w.appendSeconds(snapshot.elapsed, decimals: 1)
        w.append(" s")
        if let best {
            w.append("  best ")
            w.appendSeconds(best, decimals: 2)
            w.append(" s")
        }
        w.append("  lives ")
        w.appendDecimal(max(snapshot.lives, 0))
        w.append("  score ")
        w.appendDecimal(snapshot.score)
        // While the exit is shut, what opens it.
        if !snapshot.exitOpen {
            w.append("  pellets ")
            w.appendDecimal(snapshot.pellets.count)
        }
        if snapshot.status == .paused && !hasNotice { w.append("  PAUSED") }
    }

    /// The sensor's measured rate, `200 Hz`, or nothing before the first second.
    static func rate(_ snapshot: WorldSnapshot, into w: inout ByteWriter) {
        guard snapshot.sensorRate > 0 else { return }
        w.appendDecimal(Int(snapshot.sensorRate.rounded()))
        w.append(" Hz")
    }
}
