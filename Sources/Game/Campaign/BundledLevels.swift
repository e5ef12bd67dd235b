/// Levels compiled into the program, so `tiltmaze play` works from any
/// directory and an installed binary needs no data files. The same text is in
/// `levels/` for players to copy and edit; a test keeps the two identical.
public enum BundledLevels {
    /// The default level, as it appears in `levels/first-roll.txt`.
    public static let firstRoll = """
# TiltMaze level: the bundled one (also compiled into the program).
# Format: see README.md, "Level files".
title: First Roll
ghost: 9,5 -> 15,5 speed 2
ghost: 13,7 -> 17,7 speed 2.5
ghost: 11,9 -> 15,9 speed 1.5
maze:
###################
#S    #     #     #
# ### # ### # ### #
#   # #   #   #   #
### # ### ##### # #
#   #           # #
# ##### # ####### #
#     # #   #     #
# ### # ### # #####
#   #     #      E#
###################
"""

    /// Parses the default level.
    public static func defaultLevel() -> Level {
        do {
            return try LevelParser(file: "<bundled first-roll>").parse(firstRoll)
        } catch {
            // Only a broken build can get here; the tests parse this text.
            fatalError("bundled level does not parse: \(error)")
        }
    }
}
