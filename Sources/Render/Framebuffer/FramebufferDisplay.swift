import Controls
import Game

/// The game on a framebuffer (`/dev/fbN`): the keyboard and signals from
/// the terminal session as in the terminal display, the picture composed at
/// the framebuffer's resolution (`FramebufferScreen`) and copied into its
/// memory rectangle by rectangle, after the vertical blank where the driver
/// offers one. On a virtual console it takes the console for graphics
/// (`VirtualConsole`) and draws only while the player is on it.
public final class FramebufferDisplay: Display {
    public let device: FramebufferDevice
    public let session: TerminalSession
    public let console: VirtualConsole?
    /// The maze's picture; nil for a display made for panels only.
    public private(set) var screen: FramebufferScreen?
    private let sensorName: String
    private let path: String
    private let showStatistics: Bool
    private lazy var panelPainter = PixelPanelPainter(width: device.layout.width, height: device.layout.height)
    /// What the last `draw` copied: bytes and rectangles.
    public private(set) var lastFrame = (bytes: 0, rectangles: 0)

    /// Opens the framebuffer first (a device that cannot be drawn on fails
    /// before anything else changes), then takes the terminal for keys and,
    /// when `takeConsole` and standard input is a virtual console, the
    /// console for graphics.
    public init(level: Level?, sensorName: String, path: String, takeConsole: Bool = true,
                showStatistics: Bool = false) throws {
        let device = try FramebufferDevice(path: path)
        let screen = try level.map {
            try FramebufferScreen(level: $0, sensorName: sensorName, width: device.layout.width,
                                  height: device.layout.height, path: path, showStatistics: showStatistics)
        }
        let session = try TerminalSession.start()
        var console: VirtualConsole?
        if takeConsole && VirtualConsole.isVirtualConsole(session.input) {
            do {
                console = try VirtualConsole(descriptor: session.input)
            } catch {
                session.restore()
                throw error
            }
        }
        self.device = device
        self.screen = screen
        self.sensorName = sensorName
        self.path = path
        self.showStatistics = showStatistics
        self.session = session
        self.console = console
    }

    /// Gives the console back and restores the terminal (also on deinit).
    public func restore() {
        console?.restore()
        session.restore()
    }

    deinit { restore() }

    public var refreshPeriod: Int64? { nil }
    public var quitRequested: Bool { session.quitRequested }

    public func waitForInput(until deadline: Int64, _ handle: (Key) -> Void) {
        session.waitForInput(until: deadline, handle)
    }

    public func load(_ level: Level, banner: LevelBanner) throws {
        screen = nil
        screen = try FramebufferScreen(level: level, sensorName: sensorName, width: device.layout.width,
                                       height: device.layout.height, path: path, showStatistics: showStatistics,
                                       banner: banner)
    }

    public func setBanner(_ banner: LevelBanner) { screen?.setBanner(banner) }

    public func setNotice(_ text: String?) { screen?.setNotice(text) }

    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) { screen?.setStatistics(text) }

    /// Whether drawing may go on: not while another console is shown. A
    /// return to this console repaints everything.
    private func mayDraw() -> Bool {
        guard let console else { return true }
        if console.takeSwitch() == .acquired {
            screen?.forceFullRepaint()
            panelPainter.forceFullRepaint()
        }
        return console.isActive
    }

    public func drawPanel(_ panel: Panel) -> DrawnFrame {
        guard mayDraw() else { return DrawnFrame(bytes: 0) }
        let rects = panelPainter.paint(panel)
        device.waitForVerticalBlank()
        var bytes = 0
        for rect in rects { bytes += device.surface.copy(rect, from: panelPainter.picture) }
        lastFrame = (bytes, rects.count)
        return DrawnFrame(bytes: bytes, pieces: rects.count)
    }

    public func draw(_ snapshot: WorldSnapshot, menu: MenuState?) -> DrawnFrame {
        guard let screen else { preconditionFailure("a panel-only display cannot draw the maze") }
        guard mayDraw() else { return DrawnFrame(bytes: 0) }
        let rects = screen.compose(snapshot, menu: menu)
        device.waitForVerticalBlank()
        var bytes = 0
        for rect in rects { bytes += device.surface.copy(rect, from: screen.picture) }
        lastFrame = (bytes, rects.count)
        return DrawnFrame(bytes: bytes, pieces: rects.count)
    }
}
