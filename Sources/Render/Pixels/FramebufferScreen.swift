import Game

/// The game at framebuffer resolution: composes each frame into an RGB
/// canvas the size of the screen and says which rectangles changed, so a
/// back end copies only those (`FramebufferSurface.copy`).
///
/// Like the terminal's `GameScreen`, it takes every position and size from
/// the snapshot (the physics' own), and prepares everything costly at init:
/// the maze picture, plain and tinted for the caught flash, the text bytes.
/// A frame then puts the picture back where sprites were, paints them where
/// they are, and rewrites the status bar when its text changed. No heap
/// allocation per frame.
public final class FramebufferScreen {
    public let level: Level
    let layout: FramebufferLayout
    let background: Canvas
    let tintedBackground: Canvas
    /// The frame being composed; what the screen should show after the copy.
    public let picture: Canvas
    public let showsStatistics: Bool

    private(set) var banner: LevelBanner
    var title: [UInt8]
    var levelLabels: TextList
    let sensorLabel: [UInt8]
    let hints: [UInt8]
    private var notice: [UInt8]?
    private let statistics: UnsafeMutableBufferPointer<UInt8>
    private var statisticsCount = 0
    /// Scratch for numbers formatted during a frame, and the status text last drawn.
    private let text: UnsafeMutableBufferPointer<UInt8>
    private let shownStatus: UnsafeMutableBufferPointer<UInt8>
    private var shownStatusCount = -1
    /// Where the left text and the measured rate ended in the status last drawn.
    private var shownLeftEnd = 0, shownRateEnd = 0

    private var previousSprites: UnsafeMutableBufferPointer<PixelRect>
    private var currentSprites: UnsafeMutableBufferPointer<PixelRect>
    private var previousSpriteCount = 0
    private let dirty: UnsafeMutableBufferPointer<PixelRect>
    private var pictureIsFresh = false
    private var lastTinted = false
    private var lastMenu: MenuState?
    /// The pellets and exit the static pictures show.
    private var shownPellets: PelletSet
    private var shownExitOpen = true
    /// Where the parallax layer shows (around the maze) and at what offset it was last painted.
    private let parallaxMargins: [PixelRect]
    private var shownParallax = (x: 0, y: 0)

    static let spriteCapacity = Level.maxGhosts + 1
    /// Pellets eaten in one frame that are painted out cell by cell; more (a restart) repaint everything.
    static let pelletPatches = 8

    /// Lays `level` out on a `width`×`height` screen. Fails when the screen
    /// cannot show every cell at one pixel or more.
    public init(level: Level, sensorName: String, width: Int, height: Int, path: String = "framebuffer",
                showStatistics: Bool = false, banner: LevelBanner? = nil) throws(FramebufferError) {
        guard let layout = FramebufferLayout(levelWidth: level.width, levelHeight: level.height, width: width, height: height) else {
            let needed = FramebufferLayout.minimumSize(levelWidth: level.width, levelHeight: level.height)
            throw .tooSmall(path: path, width: width, height: height, needed: needed)
        }
        self.level = level
        self.layout = layout
        showsStatistics = showStatistics
        background = Canvas(width: width, height: height)
        tintedBackground = Canvas(width: width, height: height)
        picture = Canvas(width: width, height: height)
        let banner = banner ?? LevelBanner(title: level.title)
        self.banner = banner
        title = BitmapFont.bytes(banner.title)
        levelLabels = TextList(banner.levelLabels)
        shownPellets = PelletSet(all: level.pellets.count)
        parallaxMargins = ParallaxLayer.margins(
            of: PixelRect(x: 0, y: layout.barHeight, width: width, height: height - 2 * layout.barHeight),
            around: PixelRect(x: layout.originX, y: layout.originY, width: level.width * layout.cell, height: level.height * layout.cell))
        sensorLabel = BitmapFont.bytes("sensor: " + sensorName)
        hints = BitmapFont.bytes("arrows/WASD tilt - space level - p/Enter menu - r restart - q quit")
        statistics = .allocate(capacity: 160)
        statistics.initialize(repeating: 0)
        text = .allocate(capacity: 512)
        text.initialize(repeating: 0)
        shownStatus = .allocate(capacity: 512)
        shownStatus.initialize(repeating: 0)
        previousSprites = .allocate(capacity: Self.spriteCapacity)
        previousSprites.initialize(repeating: .empty)
        currentSprites = .allocate(capacity: Self.spriteCapacity)
        currentSprites.initialize(repeating: .empty)
        dirty = .allocate(capacity: 2 * Self.spriteCapacity + 3 + Self.pelletPatches + 4)
        dirty.initialize(repeating: .empty)
        paintBackgrounds()
    }

    /// The maze as `shownPellets` and `shownExitOpen` say, plain and tinted, with the hint bar.
    private func paintBackgrounds() {
        FramebufferMaze.paint(level, layout: layout, pellets: shownPellets, exitOpen: shownExitOpen, into: background)
        for rect in parallaxMargins { paintParallax(rect, into: background) }
        tint(PixelRect(x: 0, y: 0, width: layout.width, height: layout.height))
        drawBar(layout.hintBar, background: GamePalette.footerBackground, into: background)
        drawBar(layout.hintBar, background: GamePalette.footerBackground, into: tintedBackground)
        let hintText = showsStatistics ? sensorLabel : hints
        let hintColor = showsStatistics ? GamePalette.sensorText : GamePalette.footerText
        for canvas in [background, tintedBackground] {
            hintText.withUnsafeBufferPointer {
                _ = BitmapFont.draw($0, x: layout.textInset, y: layout.hintBar.y + 2 * layout.textScale,
                                    scale: layout.textScale, color: hintColor, into: canvas)
            }
        }
    }

    /// `tintedBackground` over `rect` made from `background` tinted for the caught flash.
    private func tint(_ rect: PixelRect) {
        tintedBackground.blendRect(from: background, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                   towards: GamePalette.caughtTint, fraction: GamePalette.caughtTintAmount)
    }

    /// Brings the static pictures to the snapshot's pellets and exit: eaten
    /// pellets painted out cell by cell into `dirty` from `count`; returns the
    /// new count, or nil when everything was repainted (a restart brought them back).
    private func updatePellets(_ snapshot: WorldSnapshot, dirtyFrom count: Int) -> Int? {
        guard snapshot.pellets != shownPellets || snapshot.exitOpen != shownExitOpen else { return count }
        var eaten = 0, returned = false
        for i in 0 ..< level.pellets.count where shownPellets.contains(i) != snapshot.pellets.contains(i) {
            if snapshot.pellets.contains(i) { returned = true }
            eaten += 1
        }
        let repaintAll = returned || eaten > Self.pelletPatches || snapshot.exitOpen != shownExitOpen
        let before = shownPellets
        shownPellets = snapshot.pellets
        shownExitOpen = snapshot.exitOpen
        if repaintAll {
            paintBackgrounds()
            return nil
        }
        var n = count
        for i in 0 ..< level.pellets.count where before.contains(i) && !shownPellets.contains(i) {
            let p = level.pellets[i]
            let rect = FramebufferMaze.paintCell(level, column: p.column, row: p.row, layout: layout, pellets: shownPellets,
                                                 exitOpen: shownExitOpen, into: background)
            tint(rect)
            picture.copyRect(from: snapshot.caughtFlash > 0 ? tintedBackground : background,
                             x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            dirty[n] = rect
            n += 1
        }
        return n
    }

    /// The stars' tile and reach grow with the text scale, so they read alike on any screen.
    private func paintParallax(_ rect: PixelRect, tint: Double = 0, into canvas: Canvas) {
        ParallaxLayer.paint(rect, offset: shownParallax, spacing: 14 * layout.textScale, tint: tint, into: canvas)
    }

    /// Moves the parallax layer to the snapshot's tilt: its margins repainted
    /// into `dirty` from `count`, when the whole-pixel offset changed.
    private func updateParallax(_ snapshot: WorldSnapshot, dirtyFrom count: Int, full: Bool) -> Int {
        let offset = ParallaxLayer.offset(snapshot.gravity, reach: 10 * layout.textScale)
        guard offset != shownParallax, !parallaxMargins.isEmpty else { return count }
        shownParallax = offset
        var n = count
        for rect in parallaxMargins {
            paintParallax(rect, into: background)
            paintParallax(rect, tint: GamePalette.caughtTintAmount, into: tintedBackground)
            guard !full else { continue }
            picture.copyRect(from: snapshot.caughtFlash > 0 ? tintedBackground : background,
                             x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            dirty[n] = rect
            n += 1
        }
        return n
    }

    /// What is shown beside the world changed (a win set a best). Allocates: call it on change.
    public func setBanner(_ banner: LevelBanner) {
        self.banner = banner
        title = BitmapFont.bytes(banner.title)
        levelLabels = TextList(banner.levelLabels)
        shownStatusCount = -1
        pictureIsFresh = false
    }

    deinit {
        statistics.deallocate()
        text.deallocate()
        shownStatus.deallocate()
        previousSprites.deallocate()
        currentSprites.deallocate()
        dirty.deallocate()
    }

    /// Makes the next frame repaint and copy everything: after the screen
    /// was someone else's (a console switch), its content is unknown.
    public func forceFullRepaint() { pictureIsFresh = false }

    /// A line for the status bar (a controller gone away); nil removes it.
    /// Allocates: call it when the text changes.
    public func setNotice(_ text: String?) {
        notice = text.map(BitmapFont.bytes)
        shownStatusCount = -1
    }

    /// The `--stats` figures (ASCII). Copies into a buffer made at init.
    public func setStatistics(_ bytes: UnsafeBufferPointer<UInt8>?) {
        statisticsCount = min(bytes?.count ?? 0, statistics.count)
        for i in 0 ..< statisticsCount { statistics[i] = bytes![i] }
        shownStatusCount = -1
    }

    /// Composes the frame for `snapshot` with `menu` open over it; returns
    /// the rectangles of `picture` that changed since the last frame.
    public func compose(_ snapshot: WorldSnapshot, menu: MenuState? = nil) -> UnsafeBufferPointer<PixelRect> {
        let tinted = snapshot.caughtFlash > 0
        let patched = updatePellets(snapshot, dirtyFrom: 0)
        let full = patched == nil || !pictureIsFresh || tinted != lastTinted || menu != lastMenu
        let backdrop = tinted ? tintedBackground : background
        var count = updateParallax(snapshot, dirtyFrom: patched ?? 0, full: full)
        if full {
            picture.copy(from: backdrop)
            shownStatusCount = -1
            dirty[0] = PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
            count = 1
        } else {
            for i in 0 ..< previousSpriteCount {
                let r = previousSprites[i]
                picture.copyRect(from: backdrop, x: r.x, y: r.y, width: r.width, height: r.height)
                dirty[count] = r
                count += 1
            }
        }
        var sprites = 0
        let ghosts = min(max(snapshot.ghostCount, 0), Level.maxGhosts)
        let cell = Double(layout.cell)
        for g in 0 ..< ghosts {
            currentSprites[sprites] = FramebufferSprites.paintGhost(
                center: layout.pixel(snapshot.ghosts[g]), radius: snapshot.ghostRadius * cell,
                heading: snapshot.ghostHeadings[g], color: GamePalette.ghost(g), into: picture)
            sprites += 1
        }
        // The player last, so it stays visible when a ghost catches it; it
        // blinks through the grace after a catch.
        if !Sprites.blinkedOut(snapshot) {
            let center = layout.pixel(snapshot.ball)
            currentSprites[sprites] = PlayerSprite.paint(banner.player, motion: snapshot.player, centerX: center.x,
                                                         centerY: center.y, radius: snapshot.ballRadius * cell,
                                                         smooth: true, into: picture)
            sprites += 1
        }
        if !full {
            for i in 0 ..< sprites {
                dirty[count] = currentSprites[i]
                count += 1
            }
        }
        swap(&previousSprites, &currentSprites)
        previousSpriteCount = sprites
        if let changed = drawStatus(snapshot, tinted: tinted), !full {
            dirty[count] = changed
            count += 1
        }
        if let menu {
            let box = drawMenu(menu, snapshot: snapshot)
            if !full {
                dirty[count] = box
                count += 1
            }
        }
        pictureIsFresh = true
        lastTinted = tinted
        lastMenu = menu
        // A sprite's old and new places overlap: one box copies them for less.
        count = PixelRect.mergeOverlapping(dirty, count: count)
        return UnsafeBufferPointer(rebasing: dirty[0 ..< count])
    }

    // MARK: Status bar

    /// Redraws the status bar if its text changed; returns the part of the
    /// bar whose pixels may differ, or nil when nothing changed.
    private func drawStatus(_ snapshot: WorldSnapshot, tinted: Bool) -> PixelRect? {
        var w = ByteWriter(text)
        w.append(UInt8(ascii: " "))
        title.withUnsafeBufferPointer { w.append($0) }
        w.append("   ")
        StatusLineText.figures(snapshot, best: banner.best, hasNotice: notice != nil, into: &w)
        let leftEnd = w.count
        StatusLineText.rate(snapshot, into: &w)
        let rateEnd = w.count
        w.append(tinted ? UInt8(1) : UInt8(0))   // the bar's colour is part of what is shown
        let status = UnsafeBufferPointer(start: text.baseAddress, count: w.count)
        if w.count == shownStatusCount && status.elementsEqual(UnsafeBufferPointer(start: shownStatus.baseAddress, count: w.count)) {
            return nil
        }
        let changed = changedSpan(status, leftEnd: leftEnd, rateEnd: rateEnd)
        _ = UnsafeMutableBufferPointer(rebasing: shownStatus[0 ..< w.count]).initialize(from: status)
        shownStatusCount = w.count
        (shownLeftEnd, shownRateEnd) = (leftEnd, rateEnd)

        let bar = layout.statusBar, scale = layout.textScale, y = bar.y + 2 * scale
        drawBar(bar, background: tinted ? GamePalette.statusCaughtBackground : GamePalette.statusBackground, into: picture)
        var x = BitmapFont.draw(UnsafeBufferPointer(start: text.baseAddress, count: leftEnd), x: layout.textInset, y: y,
                                scale: scale, color: GamePalette.statusText, into: picture)
        if let notice {
            x = notice.withUnsafeBufferPointer {
                BitmapFont.draw($0, x: x + BitmapFont.width(of: 3, scale: scale), y: y, scale: scale,
                                color: GamePalette.statusWarning, into: picture)
            }
        }
        // The sensor's name (or the live figures) at the right, if there is room.
        if showsStatistics {
            drawRightAligned(UnsafeBufferPointer(rebasing: statistics[0 ..< statisticsCount]), after: x, y: y,
                             color: GamePalette.statusText)
        } else {
            // The measured rate before the sensor's name, where both fit.
            let rate = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(text)[leftEnd ..< rateEnd])
            let labelWidth = BitmapFont.width(of: sensorLabel.count, scale: scale)
            let rateX = layout.width - layout.textInset - labelWidth - BitmapFont.width(of: rate.count + 2, scale: scale)
            if rate.count > 0, rateX >= x + BitmapFont.width(of: 3, scale: scale) {
                BitmapFont.draw(rate, x: rateX, y: y, scale: scale, color: GamePalette.sensorText, into: picture)
            }
            sensorLabel.withUnsafeBufferPointer { drawRightAligned($0, after: x, y: y, color: GamePalette.sensorText) }
        }
        return changed
    }

    /// The columns of the status bar that `status` changes from the text last
    /// drawn. The clock's tenths change ten times a second: with every piece
    /// of text where it was (same lengths), only the characters that differ
    /// are copied, a few kilobytes rather than the whole bar's width. Any
    /// other change (lengths, the caught tint, a notice or the figures set
    /// anew) takes the whole bar.
    private func changedSpan(_ status: UnsafeBufferPointer<UInt8>, leftEnd: Int, rateEnd: Int) -> PixelRect {
        let bar = layout.statusBar
        guard shownStatusCount == status.count, shownLeftEnd == leftEnd, shownRateEnd == rateEnd else { return bar }
        var first = -1, last = -1
        for i in 0 ..< status.count where status[i] != shownStatus[i] {
            if first < 0 { first = i }
            last = i
        }
        // The last byte is the tint: the whole bar's colour.
        guard first >= 0, last < status.count - 1 else { return bar }
        let scale = layout.textScale
        var x0 = bar.x + bar.width, x1 = bar.x
        if first < leftEnd {
            x0 = layout.textInset + BitmapFont.width(of: first, scale: scale)
            x1 = layout.textInset + BitmapFont.width(of: min(last, leftEnd - 1) + 1, scale: scale)
        }
        if last >= leftEnd {
            // The rate, right-aligned before the sensor's name: from where it starts to the bar's end.
            let rateX = layout.width - layout.textInset - BitmapFont.width(of: sensorLabel.count, scale: scale)
                - BitmapFont.width(of: rateEnd - leftEnd + 2, scale: scale)
            x0 = min(x0, max(rateX, bar.x))
            x1 = bar.x + bar.width
        }
        return PixelRect(x: x0, y: bar.y, width: x1 - x0, height: bar.height)
    }

    /// Draws `text` ending at the status bar's right inset, clearing what
    /// ends at `leftmost` by three characters: whole if it fits, else its
    /// beginning and "..." (a sensor's name is recognised by its start),
    /// or not at all when not even a few letters would fit.
    private func drawRightAligned(_ text: UnsafeBufferPointer<UInt8>, after leftmost: Int, y: Int, color: RGB) {
        let scale = layout.textScale
        let end = layout.width - layout.textInset
        let room = (end - leftmost - BitmapFont.width(of: 3, scale: scale)) / BitmapFont.width(of: 1, scale: scale)
        if text.count <= room {
            BitmapFont.draw(text, x: end - BitmapFont.width(of: text.count, scale: scale), y: y, scale: scale,
                            color: color, into: picture)
        } else if room >= 12 {
            let x = BitmapFont.draw(UnsafeBufferPointer(rebasing: text[0 ..< room - 3]),
                                    x: end - BitmapFont.width(of: room, scale: scale), y: y, scale: scale,
                                    color: color, into: picture)
            BitmapFont.draw("...", x: x, y: y, scale: scale, color: color, into: picture)
        }
    }

    private func drawBar(_ bar: PixelRect, background color: RGB, into canvas: Canvas) {
        canvas.fillRect(x: bar.x, y: bar.y, width: bar.width, height: bar.height, color: color)
    }

    // MARK: Menu

    /// The menu box centred over the maze; returns its rectangle.
    private func drawMenu(_ state: MenuState, snapshot: WorldSnapshot) -> PixelRect {
        let scale = layout.textScale
        var w = ByteWriter(text)
        MenuText.headline(state, snapshot: snapshot, banner: banner, into: &w)
        let headline = UnsafeBufferPointer(start: text.baseAddress, count: w.count)
        let items = state.items
        let widest = MenuText.widest(state, headlineCount: headline.count, labels: levelLabels)
        let line = (BitmapFont.glyphHeight + 3) * scale
        let width = BitmapFont.width(of: widest + 4, scale: scale)
        let height = line * (items.count + 3)
        let box = PixelRect(x: (layout.width - width) / 2, y: (layout.height - height) / 2, width: width, height: height)
        let border = max(1, scale)
        picture.fillRect(x: box.x, y: box.y, width: box.width, height: box.height, color: GamePalette.messageText)
        picture.fillRect(x: box.x + border, y: box.y + border, width: box.width - 2 * border, height: box.height - 2 * border,
                         color: GamePalette.messageBackground)
        let headlineX = box.x + (box.width - BitmapFont.width(of: headline.count, scale: scale)) / 2
        BitmapFont.draw(headline, x: headlineX, y: box.y + line / 2, scale: scale, color: GamePalette.messageText, into: picture)
        let itemX = box.x + BitmapFont.width(of: 2, scale: scale)
        for (i, item) in items.enumerated() {
            let y = box.y + line / 2 + line * (i + 2)
            let chosen = i == state.selected
            if chosen {
                picture.fillRect(x: itemX - scale, y: y - scale, width: BitmapFont.width(of: widest, scale: scale) + 2 * scale,
                                 height: line - scale, color: GamePalette.messageText)
            }
            let color = chosen ? GamePalette.messageBackground : GamePalette.messageText
            BitmapFont.draw(chosen ? ">" : " ", x: itemX, y: y, scale: scale, color: color, into: picture)
            BitmapFont.draw(MenuText.label(item, labels: levelLabels),
                            x: itemX + BitmapFont.width(of: 2, scale: scale), y: y, scale: scale, color: color, into: picture)
        }
        return box
    }
}
