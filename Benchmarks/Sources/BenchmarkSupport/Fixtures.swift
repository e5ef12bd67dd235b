// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Game
import MotionCore
import Handoff

/// Fixtures shared by the benchmarks: a level with ghosts on which the ball
/// never wins (its exit is walled in, so every step does full work), tilts that
/// roll the ball all over it, and the sample stream a 960 Hz sensor would feed.
public enum Fixtures {
    /// 30×11, four ghosts (three out-and-back, one round a loop), exit walled in.
    public static let levelText = """
        title: Benchmark hall
        ghost: 1,3 -> 27,3 speed 3
        ghost: 1,7 -> 27,7 speed 2.5
        ghost: 2,1 -> 2,9 speed 2
        ghost: 13,3 -> 13,7 -> 21,7 -> 21,3 speed 4
        maze:
        ##############################
        #S                          ##
        #   ####    ####    ####    ##
        #                           ##
        #   #   ####    ####    #   ##
        #   #                   #   ##
        #   #   ####    ####    #   ##
        #                           ##
        #   ####    ####    ####    ##
        #                           #E
        ##############################
        """

    public static func level() -> Level {
        do { return try LevelParser(file: "benchmark").parse(levelText) } catch {
            fatalError("benchmark level does not parse: \(error)")
        }
    }

    /// 40×22, so that at scale 2 it fills an 80×24 terminal (80×44 half-block
    /// pixels between the status line and the footer). Row 1 is an open
    /// corridor wall to wall for a ball to cross; pillars every few cells;
    /// four ghosts on the open rows; the exit walled in.
    public static let screenLevelText: String = {
        let width = 40, height = 22
        var rows: [[Character]] = (0..<height).map { r in
            (0..<width).map { c in
                if r == 0 || r == height - 1 || c == 0 || c == width - 1 { return "#" }
                if r % 4 == 3 && c % 5 == 2 { return "#" }
                return " "
            }
        }
        rows[1][1] = "S"
        rows[height - 2][width - 2] = "E"
        rows[height - 2][width - 3] = "#"
        rows[height - 3][width - 2] = "#"
        return """
            title: Benchmark screen
            ghost: 1,5 -> 38,5 speed 3
            ghost: 38,9 -> 1,9 speed 2.5
            ghost: 1,13 -> 1,17 -> 36,17 -> 36,13 speed 4
            ghost: 4,2 -> 4,20 speed 2
            maze:

            """ + rows.map { String($0) }.joined(separator: "\n")
    }()

    public static func screenLevel() -> Level {
        do { return try LevelParser(file: "benchmark-screen").parse(screenLevelText) } catch {
            fatalError("benchmark screen level does not parse: \(error)")
        }
    }

    /// Rules under which a benchmark's game never ends: lives do not run
    /// out. With `sealed(_:)` levels, `World.step` does a full step for as
    /// long as a benchmark runs; a world that had ended would return at once
    /// from every step and the figure would measure nothing.
    public static var endlessRules: GameRules {
        var rules = GameRules()
        rules.lives = Int.max
        return rules
    }

    /// `level` with every exit turned to wall, so the ball cannot win it.
    public static func sealed(_ level: Level) -> Level {
        Level(title: level.title, width: level.width, height: level.height,
              cells: level.cells.map { $0 == .exit ? .wall : $0 }, start: level.start, ghosts: level.ghosts,
              pellets: level.pellets, exitNeedsAllPellets: level.exitNeedsAllPellets)
    }

    /// A world on `level` (sealed) that plays for as long as a benchmark runs.
    public static func endlessWorld(_ level: Level) -> World {
        World(level: sealed(level), rules: endlessRules, dt: 1 / physicsRate)
    }

    /// A physics loop on `level` (sealed) that plays for as long as a benchmark runs.
    public static func endlessLoop(_ level: Level, samples: SPSCRing<MotionSample>) -> PhysicsLoop {
        PhysicsLoop(level: sealed(level), samples: samples, rules: endlessRules)
    }

    /// Physics rate the game runs at.
    public static let physicsRate = PhysicsLoop.defaultRate
    /// Nanoseconds per physics tick at `physicsRate`.
    public static let tickNanoseconds = Int64((1e9 / physicsRate).rounded())
    /// Sensor samples per physics tick (a 960 Hz sensor under 240 Hz physics).
    public static let samplesPerTick = 4

    /// Gravity in the board's frame for a board tilted ~25° towards a direction
    /// that turns once every `count` entries: the ball rolls around the whole hall.
    public static func gravities(count: Int = 4096) -> [Vector3] {
        (0..<count).map { i in
            let angle = 2 * Double.pi * Double(i) / Double(count) * 7   // seven turns
            let tilt = 25 * Double.pi / 180
            return TiltBoard.gravity(roll: tilt * cos(angle), pitch: tilt * sin(angle))
        }
    }

    /// The Earth's field (20 µT horizontal, 40 µT down) in the frame of a
    /// board whose heading turns once every `count` entries, so the nine-axis
    /// benchmarks time the filter and not the trigonometry that makes its input.
    public static func fields(count: Int = 1024) -> [Vector3] {
        (0..<count).map { i in
            let turn = 2 * Double.pi * Double(i) / Double(count)
            return Vector3(20 * cos(turn), -20 * sin(turn), -40)
        }
    }

    /// What the simulated board sends while a hand tilts it back and forth:
    /// `count` samples `samplePeriod` apart (timestamps to be restamped on push).
    public static func samples(count: Int = 4096) -> [MotionSample] {
        var board = TiltBoard()
        let dt = Double(samplePeriod) / 1e9
        return (0..<count).map { i in
            let phase = Double(i) / 480   // changes direction every half second at 960 Hz
            board.targetRoll = board.maxTilt * sin(phase * .pi)
            board.targetPitch = board.maxTilt * cos(phase * .pi * 0.7)
            return board.advance(by: dt, timestamp: Int64(i) * samplePeriod)
        }
    }

    public static var samplePeriod: Int64 { tickNanoseconds / Int64(samplesPerTick) }
}
