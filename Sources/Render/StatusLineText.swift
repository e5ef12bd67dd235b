import Game

/// What the status line says after the level's title, whatever draws it (the
/// terminal's cells or the framebuffer's font), so the two never disagree:
/// `12.3 s   caught 2`, then `   PAUSED` while paused, unless a notice (a
/// controller gone away) takes that place. Written into the caller's
/// `ByteWriter`: no allocation.
enum StatusLineText {
    static func figures(_ snapshot: WorldSnapshot, hasNotice: Bool, into w: inout ByteWriter) {
        w.appendSeconds(snapshot.elapsed, decimals: 1)
        w.append(" s   caught ")
        w.appendDecimal(snapshot.catches)
        if snapshot.status == .paused && !hasNotice { w.append("   PAUSED") }
    }
}
