import Foundation
import Game
import Motion
import Render

/// How a game ended.
struct PlayOutcome {
    /// Seconds to the exit, if the player reached it before quitting.
    var winningTime: Double?
    /// Why the sensor stopped, if it did (the game ends then).
    var sensorFailure: String?
}

/// One game in the terminal: the sensor and physics threads running, the main
/// thread reading keys and drawing the newest snapshot about 60 times a second.
struct PlaySession {
    let level: Level
    let source: ChosenSource
    let physicsRate: Double

    /// Frame period: the input poll doubles as the frame clock.
    static let frameMilliseconds: Int32 = 16

    func run() throws -> PlayOutcome {
        // The terminal first: if it cannot be had, no thread has started yet.
        let terminal = try TerminalSession.start()
        defer { terminal.restore() }

        let size = terminal.size
        let screen = GameScreen(level: level, sensorName: source.description,
                                colorMode: ColorMode.detect(environment: ProcessInfo.processInfo.environment),
                                columns: size.columns, rows: size.rows)
        let physics = PhysicsLoop(level: level, samples: source.source.samples, rate: physicsRate)
        try source.source.start()
        defer { source.source.stop() }
        try physics.start()
        defer { physics.stop() }

        let board = source.source as? SimulatedSource
        var quit = false
        var outcome = PlayOutcome()
        while !quit && !terminal.quitRequested {
            if let failure = source.source.failure {
                outcome.sensorFailure = failure
                break
            }
            terminal.pollInput(timeoutMilliseconds: Self.frameMilliseconds) { key in
                switch key {
                case .up: board?.nudge(right: 0, up: 1)
                case .down: board?.nudge(right: 0, up: -1)
                case .left: board?.nudge(right: -1, up: 0)
                case .right: board?.nudge(right: 1, up: 0)
                case .space: board?.level()
                case .character(UInt8(ascii: "p")), .character(UInt8(ascii: "P")):
                    physics.setPaused(!physics.isPauseRequested)
                case .character(UInt8(ascii: "r")), .character(UInt8(ascii: "R")):
                    physics.restart()
                case .character(UInt8(ascii: "q")), .character(UInt8(ascii: "Q")), .interrupt, .escape:
                    quit = true
                default:
                    break
                }
            }
            if let newSize = terminal.takeResize() {
                screen.resize(columns: newSize.columns, rows: newSize.rows)
            }
            let snapshot = physics.snapshots.read().value
            outcome.winningTime = snapshot.status == .won ? snapshot.elapsed : nil
            let frame = screen.frame(for: snapshot)
            // Nothing changed (paused, ball at rest): the terminal already shows it.
            if screen.terminalScreen.lastFrameStats.cellsEmitted > 0 { terminal.write(frame) }
        }
        return outcome
    }
}
