// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import SystemCalls
import Controls
import Game
import Realtime

/// The game in a terminal: `TerminalSession` (raw mode, keys, signals,
/// restore) and `TerminalGameView` (half-block picture, damage-tracked cells) as
/// one `Display`. A terminal has no refresh signal of its own: the frame
/// loop paces it.
public final class TerminalDisplay: Display, KeyInput {
    public let session: TerminalSession
    /// The maze's screen; nil for a display made for panels only.
    public private(set) var screen: TerminalGameView?
    private let sensorName: String
    private let colorMode: ColorMode
    private let showStatistics: Bool
    private let panelScreen: CellGrid
    private lazy var panelPainter = TerminalPanelPainter(screen: panelScreen)

    /// Takes over the terminal on standard input and output and lays the
    /// game out for its size (`level` nil: panels only). Fails, changing
    /// nothing, when either is not a terminal.
    public init(level: Level?, sensorName: String, colorMode: ColorMode,
                showStatistics: Bool = false) throws(TerminalError) {
        session = try TerminalSession.start()
        self.sensorName = sensorName
        self.colorMode = colorMode
        self.showStatistics = showStatistics
        let size = session.size
        screen = level.map {
            TerminalGameView(level: $0, sensorName: sensorName, colorMode: colorMode,
                       columns: size.columns, rows: size.rows, showStatistics: showStatistics)
        }
        panelScreen = CellGrid(columns: size.columns, rows: size.rows, colorMode: colorMode)
    }

    /// Puts the terminal back (also on deinit).
    public func restore() { session.restore() }

    public var refreshPeriod: Int64? { nil }
    public var quitRequested: Bool { session.quitRequested }
    public var suspendRequested: Bool { session.suspendRequested }

    /// The terminal is given back and taken again by the session; the
    /// resize it then reports makes the next frame a full redraw.
    public func suspendUntilContinued() { session.suspend() }

    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        session.waitForInput(until: deadline, handle)
        if let size = session.takeResize() {
            screen?.resize(columns: size.columns, rows: size.rows)
            panelScreen.resize(columns: size.columns, rows: size.rows)
        }
    }

    public func load(_ level: Level, banner: LevelBanner) {
        let size = session.size
        screen = TerminalGameView(level: level, sensorName: sensorName, colorMode: colorMode, columns: size.columns,
                            rows: size.rows, showStatistics: showStatistics, banner: banner)
    }

    public func setBanner(_ banner: LevelBanner) { screen?.setBanner(banner) }

    /// False while the terminal is too small for the maze.
    public var showsWholeMaze: Bool { screen?.showsWholeMaze ?? true }

    public func setNotice(_ text: String?) { screen?.setNotice(text) }

    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) { screen?.setStatistics(text) }

    public func drawPanel(_ panel: Panel) -> DrawnFrame {
        let frame = panelPainter.paint(panel)
        guard panelScreen.lastEncoded.cellsEmitted > 0 else { return DrawnFrame(bytes: 0) }
        session.write(frame)
        return DrawnFrame(bytes: frame.count)
    }

    public func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        guard let screen else { preconditionFailure("a panel-only display cannot draw the maze") }
        let frame = screen.frame(for: snapshot, menu: menu)
        // Nothing changed (paused, ball at rest): the terminal already shows it.
        guard screen.cellGrid.lastEncoded.cellsEmitted > 0 else { return DrawnFrame(bytes: 0) }
        session.write(frame)
        return DrawnFrame(bytes: frame.count)
    }
}
