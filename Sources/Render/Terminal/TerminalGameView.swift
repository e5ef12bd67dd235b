// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game
/// Lays the game out on a `CellGrid` and turns snapshots into frames.
///
/// The maze and its moving parts are composed by the `MazeCompositor`, as
/// for every back end, with the terminal's coarse art (`TerminalArt`); a
/// frame rasterises only the rectangles it reports into half-block cells,
/// rewrites the status line and menus in cells, and lets the damage-tracked
/// screen send what changed. No heap allocation on that path.
public final class TerminalGameView {
    public let level: Level
    public let sensorName: String
    let screen: CellGrid
    private(set) var layout: GameLayout

    /// The maze, its star layer and sprites, composed as on every back end.
    let compositor: MazeCompositor<TerminalArt>
    /// The picture being composed: the background plus this frame's sprites.
    var picture: Canvas { compositor.picture }

    /// What is shown beside the world (title, best, level menu, player style).
    private(set) var banner: LevelBanner
    /// Title, sensor and key-hint text as single-width scalars, made once.
    var title: UnsafeMutableBufferPointer<Unicode.Scalar>
    /// The level menu's lines.
    var menuLabels: MenuLabels
    let sensorLabel: UnsafeMutableBufferPointer<Unicode.Scalar>
    /// How much of `sensorLabel` names the sensor and why: all of it, or
    /// what comes before the screen's part (why this screen was chosen),
    /// which a status line short of room drops first.
    let sensorPartCount: Int
    let footerHints: UnsafeMutableBufferPointer<Unicode.Scalar>
    let footerMenuHints: UnsafeMutableBufferPointer<Unicode.Scalar>
    /// Whether the bottom line shows the menu's keys now.
    var footerForMenu = false
    /// Scratch for numbers and messages formatted during a frame.
    let textBytes: UnsafeMutableBufferPointer<UInt8>

    /// The last frame's menu box over the maze, if it had one (its cells cover the picture's).
    var lastMenuBox: MenuBox?
    /// Shown on the status line while set (`setNotice`), or, when the line
    /// has no room for it, on lines of its own under it (`noticeLines`).
    var notice: UnsafeMutableBufferPointer<Unicode.Scalar>?
    /// The notice broken into lines of `overlayWidth` cells, made when it or the size changes.
    var noticeLines: [Range<Int>] = []
    /// While the maze does not fit: the size it needs and the size now, in
    /// the longest wording that fits, broken into lines (`tooSmallLines`).
    var tooSmall: UnsafeMutableBufferPointer<Unicode.Scalar>?
    var tooSmallLines: [Range<Int>] = []
    /// The column the too-small lines start at (0 when a margin would not leave them room).
    var tooSmallColumn = 1
    /// This frame's text over the maze: the row the notice's lines start
    /// at (nil while it is on the status line, or there is none), and how
    /// many rows under the status line the text covers, last frame and this.
    var noticeRow: Int?
    var overlayRows = 0
    /// `play --stats`: live figures take the sensor's place on the status
    /// line, and the sensor moves to the bottom line in place of the key hints.
    public let showsStatistics: Bool
    /// The figures' text (`setStatistics`), in a buffer made once.
    let statistics: UnsafeMutableBufferPointer<Unicode.Scalar>
    var statisticsCount = 0

    public static let hints: String = "arrows/WASD tilt · space level · p/Enter menu · r restart · q quit"
    /// The key hints while a menu is open: its own keys, not the game's.
    public static let menuHints: String = "arrows move · Enter choose · Esc back · q quit"
    static let statisticsCapacity = 160

    public var cellGrid: CellGrid { screen }

    /// Whether the terminal shows the whole maze (if not, the status line says what size it needs).
    public var showsWholeMaze: Bool { layout.fits }

    public init(level: Level, sensorName: String, colorMode: ColorMode, columns: Int, rows: Int,
                showStatistics: Bool = false, banner: LevelBanner? = nil) {
        self.level = level
        self.sensorName = sensorName
        self.banner = banner ?? LevelBanner(title: level.title)
        menuLabels = MenuLabels(self.banner)
        showsStatistics = showStatistics
        statistics = .allocate(capacity: Self.statisticsCapacity)
        statistics.initialize(repeating: " ")
        screen = CellGrid(columns: columns, rows: rows, colorMode: colorMode)
        let layout = GameLayout(levelWidth: level.width, levelHeight: level.height, columns: columns, rows: rows)
        self.layout = layout
        compositor = MazeCompositor(level: level, art: TerminalArt(layout: layout), width: layout.pixelWidth,
                                    height: layout.pixelHeight, parallaxArea: Self.parallaxArea(layout))
        title = SingleWidthText.scalars(self.banner.title)
        sensorLabel = SingleWidthText.scalars("sensor: " + sensorName)
        sensorPartCount = Self.sensorPart(of: sensorLabel)
        footerHints = SingleWidthText.scalars(Self.hints)
        footerMenuHints = SingleWidthText.scalars(Self.menuHints)
        textBytes = .allocate(capacity: 128)
        textBytes.initialize(repeating: 0)
        drawFooter()
        layOutTexts()
    }

    /// How many scalars of `label` come before the screen's part (`StatusLineText.labelSeparator`).
    static func sensorPart(of label: UnsafeMutableBufferPointer<Unicode.Scalar>) -> Int {
        let separator = Array(StatusLineText.labelSeparator.unicodeScalars)
        guard label.count >= separator.count else { return label.count }
        for start in 0 ... label.count - separator.count where Array(label[start ..< start + separator.count]) == separator {
            return start
        }
        return label.count
    }

    deinit {
        title.deallocate()
        sensorLabel.deallocate()
        footerHints.deallocate()
        footerMenuHints.deallocate()
        textBytes.deallocate()
        notice?.deallocate()
        tooSmall?.deallocate()
        statistics.deallocate()
    }

    /// Fits the game to a new terminal size; the next frame is a full redraw.
    public func resize(columns: Int, rows: Int) {
        screen.resize(columns: columns, rows: rows)
        layout = GameLayout(levelWidth: level.width, levelHeight: level.height, columns: columns, rows: rows)
        compositor.relayout(art: TerminalArt(layout: layout), width: layout.pixelWidth, height: layout.pixelHeight,
                            parallaxArea: Self.parallaxArea(layout))
        drawFooter()
        layOutTexts()
    }

    /// What is shown beside the world changed (a win set a best). Allocates: call it on change.
    public func setBanner(_ banner: LevelBanner) {
        self.banner = banner
        title.deallocate()
        title = SingleWidthText.scalars(banner.title)
        menuLabels = MenuLabels(banner)
        compositor.forceFullRepaint()
    }

    /// The star layer shows around the maze where the maze is drawn whole:
    /// a clipped maze has no margins to speak of.
    private static func parallaxArea(_ layout: GameLayout) -> PixelRect? {
        layout.fits ? PixelRect(x: 0, y: 0, width: layout.pixelWidth, height: layout.pixelHeight) : nil
    }

    /// Composes the frame for `snapshot`, with `menu` open over the maze,
    /// and encodes it: the bytes to write to the terminal, valid until the
    /// next frame or resize.
    public func frame(for snapshot: WorldSnapshot, menu: MenuState? = nil) -> UnsafeRawBufferPointer {
        let tinted = snapshot.caughtFlash > 0
        let box = menu.map { menuBox($0, snapshot: snapshot) }
        // The menu box's cells cover the maze's: when the box goes, or
        // another takes its place (the level list's Back to the smaller
        // pause menu), the maze's cells are repainted whole.
        // The status line first: it says how many rows of text go over the
        // maze, whose cells are repainted whole when that changes.
        let textRows = drawStatusLine(snapshot, tinted: tinted)
        let full = compositor.compose(snapshot, player: banner.player,
                                      forceFull: box != lastMenuBox || textRows != overlayRows)
        lastMenuBox = box
        overlayRows = textRows
        let changed = compositor.finishFrame()
        if layout.mazeRows > 0, layout.columns > 0 {
            if full {
                screen.blitHalfBlocks(picture, column: 0, row: layout.mazeRow)
            } else {
                // The damage-tracked screen then sends only the cells that really changed.
                for r in changed {
                    screen.blitHalfBlocks(picture, column: 0, row: layout.mazeRow,
                                          pixelX: r.x, pixelY: r.y, pixelWidth: r.width, pixelHeight: r.height)
                }
            }
        }
        if let menu, let box { drawMenu(menu, snapshot: snapshot, in: box) }
        // Over the menu too: a notice is short-lived, and may say why the menu did nothing.
        drawTextOverMaze(tinted: tinted)
        if (menu != nil) != footerForMenu {
            footerForMenu = menu != nil
            drawFooter()
        }
        return screen.encodeFrame()
    }

    /// A line shown on the status line in place of the clock's neighbours
    /// (e.g. "controller disconnected: waiting for it"); nil removes it.
    /// Allocates when set, so set it when it changes, not every frame.
    public func setNotice(_ text: String?) {
        notice?.deallocate()
        notice = text.map { SingleWidthText.scalars($0) }
        breakNotice()
    }

    /// Replaces the live figures shown with `--stats` (ASCII; other bytes
    /// show as `?`); nil clears them. Copies into a buffer made at init, so
    /// it allocates nothing.
    public func setStatistics(_ text: UnsafeBufferPointer<UInt8>?) {
        statisticsCount = min(text?.count ?? 0, statistics.count)
        for i in 0 ..< statisticsCount {
            let byte = text![i]
            statistics[i] = Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?"))
        }
    }
}

/// The maze in the terminal's coarse pixels (two to a character cell):
/// flat cells, discs for ghosts, hard edges, a fine star field.
struct TerminalArt: MazeArt {
    let layout: GameLayout

    var cell: Int { layout.scale }
    var originX: Int { layout.originX }
    var originY: Int { layout.originY }
    var smoothSprites: Bool { false }
    var parallaxSpacing: Int { 6 }
    var parallaxReach: Int { 3 }

    func paintMaze(_ level: Level, pellets: PelletSet, exitOpen: Bool, into canvas: Canvas) {
        MazePicture.paint(level, layout: layout, pellets: pellets, exitOpen: exitOpen, into: canvas)
    }

    /// A few thousand pixels at terminal sizes: the whole maze is repainted,
    /// and the damage tracking sends only the cells that changed.
    func paintCell(_ level: Level, column: Int, row: Int, pellets: PelletSet, exitOpen: Bool,
                   into canvas: Canvas) -> PixelRect? { nil }

    func paintGhost(center: (x: Double, y: Double), radius: Double, heading: Point, color: RGB,
                    into canvas: Canvas) -> PixelRect {
        Sprites.disc(centerX: center.x, centerY: center.y, radius: radius, color: color, into: canvas)
    }
}
