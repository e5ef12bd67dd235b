import Controls
import Game
import MotionCore
import Realtime
import SystemCalls

/// A screen that is not the maze, as the frame loop is for the maze: the
/// sensor and the model's threads running, and this thread taking keys and
/// pad presses until each frame's deadline, then drawing the newest state
/// as a `Panel`.
public protocol PanelScreen: AnyObject {
    associatedtype Model: MotionModel
    var loop: MotionModelLoop<Model> { get }
    /// Acts on a key or press; false ends the screen.
    func handle(_ input: PanelInput) -> Bool
    /// What to draw for the model's newest state.
    func panel(_ snapshot: Model.Snapshot, status: MotionStatus, now: Int64) -> Panel
}

/// What a key or a pad button means on a panel screen.
public enum PanelInput: Equatable, Sendable {
    case up, down, left, right
    /// Enter, south (A / Cross), the joystick pressed.
    case select
    /// East (B / Circle), Start: leave.
    case back
    /// q, Esc, Ctrl-C.
    case quit
    case space
    /// Any other letter or digit, as typed.
    case character(UInt8)

    public init?(key: Key) {
        switch key {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .enter: self = .select
        case .space: self = .space
        case .escape, .interrupt: self = .quit
        case .suspend: return nil
        case .function: return nil
        case .character(let c):
            switch c {
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): self = .quit
            default: self = .character(c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c)
            }
        }
    }

    public init(button: PadButton) {
        switch button {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .south: self = .select
        case .east, .start: self = .back
        case .select: self = .space
        }
    }
}

public enum PanelLoop {
    /// Runs `screen` until it ends, the display asks to, or the sensor fails
    /// (its reason is returned). Starts and stops the sensor and the model.
    public static func run<S: PanelScreen>(_ screen: S, display: any Display, source: any MotionSource,
                                           pads: [any PadSource] = [],
                                           framePeriod: Int64? = nil) throws -> String? {
        try source.start()
        defer { source.stop() }
        try screen.loop.start()
        defer { screen.loop.stop() }
        var schedule = PeriodicSchedule(period: framePeriod ?? display.refreshPeriod ?? FrameLoop.defaultFramePeriod,
                                        start: MonotonicClock.now(), maxCatchUp: 2)
        var running = true
        while running && !display.quitRequested {
            if let failure = source.failure { return failure }
            display.waitForInput(until: schedule.deadline) { key in
                if running, let input = PanelInput(key: key) { running = screen.handle(input) }
            }
            guard running, !display.quitRequested else { break }
            if display.suspendRequested {
                display.suspendUntilContinued()
                schedule = PeriodicSchedule(period: schedule.period, start: MonotonicClock.now(), maxCatchUp: 2)
                continue
            }
            let now = MonotonicClock.now()
            _ = schedule.woke(at: now)
            for pad in pads { pad.poll { if running { running = screen.handle(PanelInput(button: $0)) } } }
            guard running else { break }
            let snapshot = screen.loop.snapshots.read().value
            let status = screen.loop.status.read().value
            display.drawPanel(screen.panel(snapshot, status: status, now: now))
        }
        return nil
    }
}
