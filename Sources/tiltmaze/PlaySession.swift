import Foundation
import Game
import MotionCore
import MotionDevices
import Controls
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
        let pads = PadControls(nodes: SensorDiscovery.inputNodes())
        var flow = GameFlow()
        var quit = false
        var outcome = PlayOutcome()
        var shownInterruption: String?
        func apply(_ input: GameInput) {
            switch flow.handle(input) {
            case .nudge(let right, let up): board?.nudge(right: right, up: up)
            case .level: board?.level()
            case .restart: physics.restart()
            case .quit: quit = true
            case nil: break
            }
        }
        while !quit && !terminal.quitRequested {
            if let failure = source.source.failure {
                outcome.sensorFailure = failure
                break
            }
            terminal.pollInput(timeoutMilliseconds: Self.frameMilliseconds) { key in
                if let input = GameInput(key: key) { apply(input) }
            }
            pads.poll { apply(GameInput(button: $0)) }
            // A controller that went away pauses the game until it is back.
            let interruption = source.source.interruption
            if interruption != shownInterruption {
                shownInterruption = interruption
                screen.setNotice(interruption)
            }
            physics.setPaused(flow.wantsPause || interruption != nil)
            if let newSize = terminal.takeResize() {
                screen.resize(columns: newSize.columns, rows: newSize.rows)
            }
            let snapshot = physics.snapshots.read().value
            flow.update(status: snapshot.status)
            outcome.winningTime = snapshot.status == .won ? snapshot.elapsed : nil
            let frame = screen.frame(for: snapshot, menu: flow.menu)
            // Nothing changed (paused, ball at rest): the terminal already shows it.
            if screen.terminalScreen.lastFrameStats.cellsEmitted > 0 { terminal.write(frame) }
        }
        return outcome
    }
}
