import Game
/// Lays the game out on a `TerminalScreen` and turns snapshots into frames.
///
/// Everything a frame needs is prepared at init and resize: the layout, the
/// static maze picture (plain and tinted for the caught flash), the canvas
/// being composed, the title and footer text. A frame then puts the static
/// picture back where sprites were, paints the sprites where they are now,
/// rasterises only those rectangles, rewrites the status line, and lets the
/// damage-tracked screen send what changed. No heap allocation on that path.
public final class GameScreen {
    public let level: Level
    public let sensorName: String
    let screen: TerminalScreen
    private(set) var layout: GameLayout

    /// The maze without sprites, and the same tinted red.
    let background: Canvas
    let tintedBackground: Canvas
    /// The picture being composed: the background plus this frame's sprites.
    let picture: Canvas

    /// What is shown beside the world (title, best, level menu, player style).
    private(set) var banner: LevelBanner
    /// Title, sensor and key-hint text as single-width scalars, made once.
    var title: UnsafeMutableBufferPointer<Unicode.Scalar>
    /// The level menu's lines.
    var levelLabels: TextList
    let sensorLabel: UnsafeMutableBufferPointer<Unicode.Scalar>
    let footerHints: UnsafeMutableBufferPointer<Unicode.Scalar>
    /// Scratch for numbers and messages formatted during a frame.
    let textBytes: UnsafeMutableBufferPointer<UInt8>

    /// Where sprites were painted last frame and this frame.
    var previousSprites: UnsafeMutableBufferPointer<PixelRect>
    var currentSprites: UnsafeMutableBufferPointer<PixelRect>
    var previousSpriteCount = 0

    /// What the last frame looked like in ways that need a full repaint to change.
    var pictureIsFresh = false
    var lastTinted = false
    var lastBoxed = false
    /// The pellets and exit the static pictures show.
    var shownPellets = PelletSet()
    var shownExitOpen = true
    /// Where the parallax layer shows (around the maze) and at what offset it was last painted.
    var parallaxMargins: [PixelRect] = []
    var shownParallax = (x: 0, y: 0)
    /// Shown on the status line while set (`setNotice`).
    var notice: UnsafeMutableBufferPointer<Unicode.Scalar>?
    /// `play --stats`: live figures take the sensor's place on the status
    /// line, and the sensor moves to the bottom line in place of the key hints.
    public let showsStatistics: Bool
    /// The figures' text (`setStatistics`), in a buffer made once.
    let statistics: UnsafeMutableBufferPointer<Unicode.Scalar>
    var statisticsCount = 0

    public static let hints: String = "arrows/WASD tilt · space level · p/Enter menu · r restart · q quit"
    static let spriteCapacity = Level.maxGhosts + 1
    static let statisticsCapacity = 160

    public var terminalScreen: TerminalScreen { screen }

    public init(level: Level, sensorName: String, colorMode: ColorMode, columns: Int, rows: Int,
                showStatistics: Bool = false, banner: LevelBanner? = nil) {
        self.level = level
        self.sensorName = sensorName
        self.banner = banner ?? LevelBanner(title: level.title)
        levelLabels = TextList(self.banner.levelLabels)
        shownPellets = PelletSet(all: level.pellets.count)
        showsStatistics = showStatistics
        statistics = .allocate(capacity: Self.statisticsCapacity)
        statistics.initialize(repeating: " ")
        screen = TerminalScreen(columns: columns, rows: rows, colorMode: colorMode)
        layout = GameLayout(levelWidth: level.width, levelHeight: level.height, columns: columns, rows: rows)
        background = Canvas(width: layout.pixelWidth, height: layout.pixelHeight)
        tintedBackground = Canvas(width: layout.pixelWidth, height: layout.pixelHeight)
        picture = Canvas(width: layout.pixelWidth, height: layout.pixelHeight)
        title = SingleWidthText.scalars(self.banner.title)
        sensorLabel = SingleWidthText.scalars("sensor: " + sensorName)
        footerHints = SingleWidthText.scalars(Self.hints)
        textBytes = .allocate(capacity: 128)
        textBytes.initialize(repeating: 0)
        previousSprites = .allocate(capacity: Self.spriteCapacity)
        previousSprites.initialize(repeating: .empty)
        currentSprites = .allocate(capacity: Self.spriteCapacity)
        currentSprites.initialize(repeating: .empty)
        prepareLayout()
    }

    deinit {
        title.deallocate()
        sensorLabel.deallocate()
        footerHints.deallocate()
        textBytes.deallocate()
        previousSprites.deallocate()
        currentSprites.deallocate()
        notice?.deallocate()
        statistics.deallocate()
    }

    /// Fits the game to a new terminal size; the next frame is a full redraw.
    public func resize(columns: Int, rows: Int) {
        screen.resize(columns: columns, rows: rows)
        layout = GameLayout(levelWidth: level.width, levelHeight: level.height, columns: columns, rows: rows)
        background.resize(width: layout.pixelWidth, height: layout.pixelHeight)
        tintedBackground.resize(width: layout.pixelWidth, height: layout.pixelHeight)
        picture.resize(width: layout.pixelWidth, height: layout.pixelHeight)
        prepareLayout()
    }

    /// What is shown beside the world changed (a win set a best). Allocates: call it on change.
    public func setBanner(_ banner: LevelBanner) {
        self.banner = banner
        title.deallocate()
        title = SingleWidthText.scalars(banner.title)
        levelLabels = TextList(banner.levelLabels)
        pictureIsFresh = false
    }

    /// Paints the static pictures and the footer for the current layout.
    private func prepareLayout() {
        // Only where the maze is drawn whole: a clipped maze has no margins to speak of.
        parallaxMargins = layout.fits ? ParallaxLayer.margins(
            of: PixelRect(x: 0, y: 0, width: layout.pixelWidth, height: layout.pixelHeight),
            around: PixelRect(x: layout.originX, y: layout.originY, width: level.width * layout.scale,
                              height: level.height * layout.scale)) : []
        paintBackgrounds()
        drawFooter()
        previousSpriteCount = 0
        pictureIsFresh = false
    }

    /// The maze with the pellets and exit as `shownPellets` and `shownExitOpen` say, plain and tinted.
    private func paintBackgrounds() {
        MazePicture.paint(level, layout: layout, pellets: shownPellets, exitOpen: shownExitOpen, into: background)
        for rect in parallaxMargins { ParallaxLayer.paint(rect, offset: shownParallax, spacing: 6, into: background) }
        MazePicture.tint(tintedBackground, from: background,
                         towards: GamePalette.caughtTint, fraction: GamePalette.caughtTintAmount)
    }

    /// Composes the frame for `snapshot`, with `menu` open over the maze,
    /// and encodes it: the bytes to write to the terminal, valid until the
    /// next frame or resize.
    public func frame(for snapshot: WorldSnapshot, menu: MenuState? = nil) -> UnsafeRawBufferPointer {
        let tinted = snapshot.caughtFlash > 0
        let boxed = menu != nil
        var changedMaze = false
        let parallax = parallaxMargins.isEmpty ? shownParallax : ParallaxLayer.offset(snapshot.gravity, reach: 3)
        if snapshot.pellets != shownPellets || snapshot.exitOpen != shownExitOpen || parallax != shownParallax {
            // A pellet eaten, the exit opened, the stars moved: a few thousand pixels to
            // repaint at terminal sizes, and the damage tracking sends only the cells that changed.
            shownPellets = snapshot.pellets
            shownExitOpen = snapshot.exitOpen
            shownParallax = parallax
            paintBackgrounds()
            changedMaze = true
        }
        composeMaze(snapshot, tinted: tinted,
                    fullRepaint: !pictureIsFresh || changedMaze || tinted != lastTinted || boxed != lastBoxed)
        pictureIsFresh = true
        lastTinted = tinted
        lastBoxed = boxed
        drawStatusLine(snapshot, tinted: tinted)
        if let menu { drawMenu(menu, snapshot: snapshot) }
        return screen.encodeFrame()
    }

    /// A line shown on the status line in place of the clock's neighbours
    /// (e.g. "controller disconnected: waiting for it"); nil removes it.
    /// Allocates when set, so set it when it changes, not every frame.
    public func setNotice(_ text: String?) {
        notice?.deallocate()
        notice = text.map { SingleWidthText.scalars($0) }
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

    /// Sprites onto the picture, and the changed parts of the picture onto the screen.
    private func composeMaze(_ snapshot: WorldSnapshot, tinted: Bool, fullRepaint: Bool) {
        guard layout.mazeRows > 0, layout.columns > 0 else { return }
        let backdrop = tinted ? tintedBackground : background
        if fullRepaint {
            picture.copy(from: backdrop)
        } else {
            for i in 0 ..< previousSpriteCount {
                let r = previousSprites[i]
                picture.copyRect(from: backdrop, x: r.x, y: r.y, width: r.width, height: r.height)
            }
        }

        var count = 0
        let ghosts = min(max(snapshot.ghostCount, 0), Level.maxGhosts)
        for g in 0 ..< ghosts {
            currentSprites[count] = Sprites.paintDisc(at: snapshot.ghosts[g], radius: snapshot.ghostRadius,
                                                      color: GamePalette.ghost(g), layout: layout, into: picture)
            count += 1
        }
        // The player last, so it stays visible when a ghost catches it; it
        // blinks through the grace after a catch.
        if !Sprites.blinkedOut(snapshot) {
            let s = Double(layout.scale)
            currentSprites[count] = PlayerSprite.paint(
                banner.player, motion: snapshot.player, centerX: Double(layout.originX) + snapshot.ball.x * s,
                centerY: Double(layout.originY) + snapshot.ball.y * s, radius: snapshot.ballRadius * s,
                smooth: false, into: picture)
            count += 1
        }

        if fullRepaint {
            screen.blitHalfBlocks(picture, column: 0, row: layout.mazeRow)
        } else {
            blit(previousSprites, count: previousSpriteCount)
            blit(currentSprites, count: count)
        }
        swap(&previousSprites, &currentSprites)
        previousSpriteCount = count
    }

    private func blit(_ rects: UnsafeMutableBufferPointer<PixelRect>, count: Int) {
        for i in 0 ..< count {
            let r = rects[i]
            screen.blitHalfBlocks(picture, column: 0, row: layout.mazeRow,
                                  pixelX: r.x, pixelY: r.y, pixelWidth: r.width, pixelHeight: r.height)
        }
    }
}
