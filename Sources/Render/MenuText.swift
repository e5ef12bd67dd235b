import Game

/// What a menu box says, whatever draws it (terminal cells or the
/// framebuffer's font): its headline, and how many characters wide its
/// widest line is (an item has a marker and a space before its label).
enum MenuText {
    /// "PAUSED", or "You escaped in 12.34 s", into `w`.
    static func headline(_ state: MenuState, elapsed: Double, into w: inout ByteWriter) {
        switch state.menu {
        case .paused:
            w.append("PAUSED")
        case .won:
            w.append("You escaped in ")
            w.appendSeconds(elapsed, decimals: 2)
            w.append(" s")
        }
    }

    /// The widest line of the box, in characters, for a headline of `headlineCount`.
    static func widest(_ state: MenuState, headlineCount: Int) -> Int {
        var widest = headlineCount
        for item in state.menu.items { widest = max(widest, item.label.utf8CodeUnitCount + 2) }
        return widest
    }
}
