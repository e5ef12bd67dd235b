// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Render
import Controls
import Game

/// The game on a screen of pixels (a framebuffer, or KMS): the keyboard and
/// signals from the terminal session as in the terminal display, the picture
/// composed at the output's resolution (`PixelGameView`, or
/// `PixelPanelPainter` for the other screens) and handed to the output
/// (`PixelOutput`) as the rectangles that changed. On a virtual console it
/// takes the console for graphics (`VirtualConsole`) and draws only while
/// the player is on it; a switch away lets the output go, and coming back
/// takes it again and repaints everything.
public final class PixelDisplay: Display, KeyInput {
    public let output: any PixelOutput
    public let session: TerminalSession
    public let console: VirtualConsole?
    /// The maze's picture; nil for a display made for panels only.
    public private(set) var screen: PixelGameView?
    private let sensorName: String
    private let showStatistics: Bool
    private lazy var panelPainter = PixelPanelPainter(width: output.width, height: output.height)
    /// The output's figures (flips), written a few times a second.
    private let statisticsText = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
    /// What the last `draw` copied: bytes and rectangles.
    public private(set) var lastFrame = (bytes: 0, rectangles: 0)

    /// Takes `output`, which is already open (a device that cannot be drawn
    /// on fails before anything else changes), then the terminal for keys
    /// and, when `takeConsole` and standard input is a virtual console, the
    /// console for graphics. On failure the output is given back too.
    public init(level: Level?, sensorName: String, output: any PixelOutput, takeConsole: Bool = true,
                showStatistics: Bool = false) throws {
        do {
            screen = try level.map {
                try PixelGameView(level: $0, sensorName: sensorName, width: output.width, height: output.height,
                                      path: output.name, showStatistics: showStatistics)
            }
            session = try TerminalSession.start()
        } catch {
            output.restore()
            throw error
        }
        var console: VirtualConsole?
        if takeConsole && VirtualConsole.isVirtualConsole(session.input) {
            do {
                console = try VirtualConsole(descriptor: session.input)
            } catch {
                session.restore()
                output.restore()
                throw error
            }
        }
        self.output = output
        self.sensorName = sensorName
        self.showStatistics = showStatistics
        self.console = console
    }

    /// Gives the screen, the console and the terminal back (also on deinit).
    public func restore() {
        output.restore()
        console?.restore()
        session.restore()
    }

    deinit {
        restore()
        statisticsText.deallocate()
    }

    public var refreshPeriod: Int64? { output.refreshPeriod }
    public var quitRequested: Bool { session.quitRequested }
    public var suspendRequested: Bool { session.suspendRequested }

    /// Lets the screen go (DRM master dropped), the console back to text,
    /// the terminal restored; after `fg`, the reverse, and a full repaint.
    public func suspendUntilContinued() {
        output.release()
        console?.giveBack()
        session.suspend()
        console?.takeAgain()
        output.acquire()
        screen?.forceFullRepaint()
        panelPainter.forceFullRepaint()
    }

    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        session.waitForInput(until: deadline, handle)
    }

    public func load(_ level: Level, banner: LevelBanner) throws {
        screen = nil
        screen = try PixelGameView(level: level, sensorName: sensorName, width: output.width, height: output.height,
                                       path: output.name, showStatistics: showStatistics, banner: banner)
    }

    public func setBanner(_ banner: LevelBanner) { screen?.setBanner(banner) }

    public func setNotice(_ text: String?) { screen?.setNotice(text) }

    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) {
        guard let text else {
            screen?.setStatistics(nil)
            return
        }
        // The output's figures (flips) go apart: the screen shows them in the sensor's place.
        let count = output.statistics(into: statisticsText)
        screen?.setStatistics(text, output: UnsafeBufferPointer(rebasing: statisticsText[..<count]))
    }

    /// Whether drawing may go on: not while another console is shown. A
    /// return to this console repaints everything.
    private func mayDraw() -> Bool {
        guard let console else { return true }
        let change = console.takeSwitch(beforeRelease: { output.release() }, afterAcquire: { output.acquire() })
        if change == .acquired {
            screen?.forceFullRepaint()
            panelPainter.forceFullRepaint()
        }
        return console.isActive
    }

    public func drawPanel(_ panel: Panel) -> DrawnFrame {
        guard mayDraw() else { return DrawnFrame(bytes: 0) }
        let rects = panelPainter.paint(panel)
        let bytes = rects.withUnsafeBufferPointer { output.present($0, of: panelPainter.picture) }
        lastFrame = (bytes, rects.count)
        return DrawnFrame(bytes: bytes, pieces: rects.count)
    }

    public func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        guard let screen else { preconditionFailure("a panel-only display cannot draw the maze") }
        guard mayDraw() else { return DrawnFrame(bytes: 0) }
        let rects = screen.compose(snapshot, menu: menu)
        output.noteSampleTime(snapshot.lastSampleTime)
        let bytes = output.present(rects, of: screen.picture)
        lastFrame = (bytes, rects.count)
        return DrawnFrame(bytes: bytes, pieces: rects.count)
    }
}
