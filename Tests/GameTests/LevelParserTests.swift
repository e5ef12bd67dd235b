// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
@testable import Game

@Suite("Level files")
struct LevelParserTests {
    func parse(_ text: String) throws(LevelError) -> Level {
        try LevelParser(file: "test.txt").parse(text)
    }

    func error(_ text: String) -> LevelError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test("a small level parses into cells, start, exit and title")
    func parsesSmallLevel() throws {
        let level = try parse("""
            title: Tiny
            maze:
            #####
            #S.E#
            #####
            """)
        #expect(level.title == "Tiny")
        #expect(level.width == 5 && level.height == 3)
        #expect(level.start == (1, 1))
        #expect(level.cell(3, 1) == .exit)
        #expect(level.cell(2, 1) == .floor)
        #expect(level.cell(0, 0) == .wall)
        #expect(level.ghosts.isEmpty)
    }

    @Test("outside the maze and past the end of short rows is wall")
    func outsideIsWall() throws {
        let level = try parse("maze:\n#####\n#SE\n#####\n")
        #expect(level.cell(3, 1) == .wall)
        #expect(level.cell(-1, 0) == .wall)
        #expect(level.cell(0, 99) == .wall)
    }

    @Test("comments, blank lines and CRLF line ends are accepted before the maze")
    func commentsAndCRLF() throws {
        let level = try parse("# a comment\r\n\r\n  # indented\r\ntitle: X\r\nmaze:\r\n###\r\n#S#\r\n#E#\r\n###\r\n")
        #expect(level.title == "X")
        #expect(level.height == 4)
    }

    @Test("a ghost line gives waypoints and speed")
    func ghostLine() throws {
        let level = try parse("""
            ghost: 1,1 -> 5,1 -> 5,2 -> 1,2 speed 3.5
            ghost: 2,1 -> 4,1
            maze:
            #######
            #S    #
            #    E#
            #######
            """)
        #expect(level.ghosts.count == 2)
        #expect(level.ghosts[0].speed == 3.5)
        #expect(level.ghosts[0].waypoints.map { [$0.column, $0.row] } == [[1, 1], [5, 1], [5, 2], [1, 2]])
        #expect(level.ghosts[1].speed == LevelParser.defaultGhostSpeed)
    }

    @Test("an unexpected maze character is reported with its line and column")
    func badCharacter() {
        let e = error("title: T\nmaze:\n#####\n#S?E#\n#####\n")
        #expect(e == LevelError(file: "test.txt", line: 4, column: 3,
                                message: "unexpected `?` in the maze; expected `#` (wall), `.` or space (floor), `o` (a pellet), `S` (start) or `E` (exit)"))
        #expect(e?.description.hasPrefix("test.txt:4:3: unexpected `?`") == true)
    }

    @Test("a missing maze, start or exit is an error saying what is missing")
    func missingParts() {
        #expect(error("title: T\n")?.message.contains("`maze:`") == true)
        #expect(error("maze:\n###\n#E#\n###")?.message.contains("no start") == true)
        #expect(error("maze:\n###\n#S#\n###")?.message.contains("no exit") == true)
        #expect(error("maze:\n\n\n")?.message.contains("expected maze rows") == true)
    }

    @Test("two starts: the second is reported, pointing at the first")
    func twoStarts() {
        let e = error("maze:\n#####\n#S#S#\n#E###\n")
        #expect(e?.line == 3 && e?.column == 4)
        #expect(e?.message.contains("line 3, column 2") == true)
    }

    @Test("an unknown header key is reported at its column")
    func unknownKey() {
        let e = error("  colour: red\nmaze:\n###\n#S#\n#E#\n")
        #expect(e?.line == 1 && e?.column == 3)
        #expect(e?.message.contains("unknown key `colour`") == true)
    }

    @Test("a header line without a colon says what was expected")
    func headerWithoutColon() {
        let e = error("hello\nmaze:\n")
        #expect(e?.line == 1 && e?.column == 1)
        #expect(e?.message.contains("`key: value`") == true)
    }

    @Test("ghost errors: bad waypoint, wall waypoint, diagonal leg, leg through a wall, bad speed, one waypoint")
    func ghostErrors() {
        let maze = "\nmaze:\n#######\n#S  # #\n#    E#\n#######\n"
        let bad = error("ghost: 1,1 -> x,1" + maze)
        #expect(bad?.line == 1 && bad?.column == 15)
        #expect(bad?.message.contains("expected a waypoint `column,row`") == true)
        #expect(error("ghost: 1,1 -> 5,1" + maze)?.message.contains("runs through the wall at 4,1") == true)
        #expect(error("ghost: 0,0 -> 1,0" + maze)?.message.contains("not a floor cell") == true)
        #expect(error("ghost: 1,1 -> 2,2" + maze)?.message.contains("diagonal") == true)
        #expect(error("ghost: 1,1 -> 2,1 speed fast" + maze)?.message.contains("ghost speed") == true)
        #expect(error("ghost: 1,1" + maze)?.message.contains("at least two waypoints") == true)
        #expect(error("ghost: 1,1 -> 3,1 -> 3,2" + maze)?.message.contains("returns from 3,2") == true)
    }

    @Test("more ghosts than a snapshot can carry is an error")
    func tooManyGhosts() {
        let ghosts = String(repeating: "ghost: 1,1 -> 2,1\n", count: Level.maxGhosts + 1)
        let e = error(ghosts + "maze:\n####\n#S.#\n#E.#\n####\n")
        #expect(e?.line == Level.maxGhosts + 1)
        #expect(e?.message.contains("too many ghosts") == true)
    }
}
