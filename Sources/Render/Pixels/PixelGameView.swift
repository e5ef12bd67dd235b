// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// The game at framebuffer resolution: composes each frame into an RGB
/// canvas the size of the screen and says which rectangles changed, so a
/// back end copies only those (`PixelSurface.copy`).
///
/// The maze and its moving parts are the `MazeCompositor`'s, as for the
/// terminal, drawn with this screen's art (`ScreenArt`); this adds the text
/// in the bitmap font: the status bar, rewritten only where its text
/// changed, the hint bar and the menus. No heap allocation per frame.
public final class PixelGameView {
    public let level: Level
    let layout: PixelLayout
    let compositor: MazeCompositor<ScreenArt>
    /// The frame being composed; what the screen should show after the copy.
    public var picture: Canvas { compositor.picture }
    public let showsStatistics: Bool

    private(set) var banner: LevelBanner
    var title: [UInt8]
    var menuLabels: MenuLabels
    let sensorLabel: [UInt8]
    let hints: [UInt8]
    /// While a menu is open the bar names the menu's keys, not the game's.
    let menuHints: [UInt8]
    private var showsMenuHints = false
    private var notice: [UInt8]?
    /// With `--stats`: the frame loop's figures, shown on the hint bar (the
    /// whole width: they do not fit beside the status text), and the
    /// output's (flips), shown at the status bar's right in the sensor's place.
    private let statistics: UnsafeMutableBufferPointer<UInt8>
    private var statisticsCount = 0
    private let outputFigures: UnsafeMutableBufferPointer<UInt8>
    private var outputFiguresCount = 0
    private var statisticsChanged = false
    /// Scratch for numbers formatted during a frame, and the status text last drawn.
    private let text: UnsafeMutableBufferPointer<UInt8>
    private let shownStatus: UnsafeMutableBufferPointer<UInt8>
    private var shownStatusCount = -1
    /// Where the left text and the measured rate ended in the status last drawn.
    private var shownLeftEnd = 0, shownRateEnd = 0
    /// Where the last frame's menu box was drawn over the picture, if one was.
    private var lastMenuBox: PixelRect?

    /// Lays `level` out on a `width`×`height` screen. Fails when the screen
    /// cannot show every cell at one pixel or more.
    public init(level: Level, sensorName: String, width: Int, height: Int, path: String = "framebuffer",
                showStatistics: Bool = false, banner: LevelBanner? = nil) throws(PictureTooSmall) {
        guard let layout = PixelLayout(levelWidth: level.width, levelHeight: level.height, width: width, height: height) else {
            let needed = PixelLayout.minimumSize(levelWidth: level.width, levelHeight: level.height)
            throw PictureTooSmall(path: path, width: width, height: height, neededWidth: needed.width, neededHeight: needed.height)
        }
        self.level = level
        self.layout = layout
        showsStatistics = showStatistics
        let banner = banner ?? LevelBanner(title: level.title)
        self.banner = banner
        title = BitmapFont.bytes(banner.title)
        menuLabels = MenuLabels(banner)
        sensorLabel = BitmapFont.bytes("sensor: " + sensorName)
        // The terminal's words; the font draws their middle dots as dashes.
        hints = BitmapFont.bytes(TerminalGameView.hints)
        menuHints = BitmapFont.bytes(TerminalGameView.menuHints)
        // With --stats the figures take the hint bar, drawn over it as they change.
        let art = ScreenArt(layout: layout, hint: showStatistics ? [] : hints, hintColor: GamePalette.footerText)
        compositor = MazeCompositor(level: level, art: art, width: width, height: height,
                                    parallaxArea: PixelRect(x: 0, y: layout.barHeight, width: width,
                                                            height: height - 2 * layout.barHeight))
        statistics = .allocate(capacity: 160)
        statistics.initialize(repeating: 0)
        outputFigures = .allocate(capacity: 96)
        outputFigures.initialize(repeating: 0)
        text = .allocate(capacity: 512)
        text.initialize(repeating: 0)
        shownStatus = .allocate(capacity: 512)
        shownStatus.initialize(repeating: 0)
    }

    /// What is shown beside the world changed (a win set a best). Allocates: call it on change.
    public func setBanner(_ banner: LevelBanner) {
        self.banner = banner
        title = BitmapFont.bytes(banner.title)
        menuLabels = MenuLabels(banner)
        shownStatusCount = -1
        compositor.forceFullRepaint()
    }

    deinit {
        statistics.deallocate()
        outputFigures.deallocate()
        text.deallocate()
        shownStatus.deallocate()
    }

    /// Makes the next frame repaint and copy everything: after the screen
    /// was someone else's (a console switch), its content is unknown.
    public func forceFullRepaint() { compositor.forceFullRepaint() }

    /// A line for the status bar (a controller gone away); nil removes it.
    /// Allocates: call it when the text changes.
    public func setNotice(_ text: String?) {
        notice = text.map(BitmapFont.bytes)
        shownStatusCount = -1
    }

    /// The `--stats` figures (ASCII): the frame loop's, and the output's
    /// (flips, missed vertical blanks; empty for a framebuffer). Copies into
    /// buffers made at init.
    public func setStatistics(_ bytes: UnsafeBufferPointer<UInt8>?, output: UnsafeBufferPointer<UInt8>? = nil) {
        statisticsCount = min(bytes?.count ?? 0, statistics.count)
        for i in 0 ..< statisticsCount { statistics[i] = bytes![i] }
        outputFiguresCount = min(output?.count ?? 0, outputFigures.count)
        for i in 0 ..< outputFiguresCount { outputFigures[i] = output![i] }
        statisticsChanged = true
        shownStatusCount = -1
    }

    /// `text` across the hint bar, over what was there: the key hints, or with
    /// `--stats` the frame loop's figures.
    private func drawHintBar(_ text: UnsafeBufferPointer<UInt8>, color: RGB) {
        let bar = layout.hintBar
        drawBar(bar, background: GamePalette.footerBackground, into: picture)
        _ = BitmapFont.draw(text, x: layout.textInset, y: bar.y + 2 * layout.textScale, scale: layout.textScale,
                            color: color, into: picture)
    }

    /// Composes the frame for `snapshot` with `menu` open over it; returns
    /// the rectangles of `picture` that changed since the last frame.
    public func compose(_ snapshot: WorldSnapshot, menu: MenuState? = nil) -> UnsafeBufferPointer<PixelRect> {
        let tinted = snapshot.caughtFlash > 0
        // The menu is drawn over the picture: where it was, the maze and its
        // sprites are put back before this frame's box (if any) goes on top.
        let full = compositor.compose(snapshot, player: banner.player, restoring: lastMenuBox)
        if full { shownStatusCount = -1 }
        // The box put back over part of the bar leaves it half the game's hints; a full repaint
        // copies the game's back with the backdrop. Either way the hints wanted are drawn again
        // (one bar, on a rare frame): a kernel-tier run once showed the menu's keys on a bar with
        // no menu open, and the bar is right now whatever the frame before left on it.
        var barInDoubt = full
        if let box = lastMenuBox {
            // On a small screen the box may have covered a bar: draw it again.
            if box.y < layout.statusBar.y + layout.statusBar.height { shownStatusCount = -1 }
            if box.y + box.height > layout.hintBar.y { statisticsChanged = true; barInDoubt = true }
        }
        if let changed = drawStatus(snapshot, tinted: tinted), !full { compositor.add(changed) }
        let wantsMenuHints = menu != nil && !showsStatistics
        if !showsStatistics, barInDoubt || wantsMenuHints != showsMenuHints {
            (wantsMenuHints ? menuHints : hints).withUnsafeBufferPointer { drawHintBar($0, color: GamePalette.footerText) }
            if !full { compositor.add(layout.hintBar) }
        }
        showsMenuHints = wantsMenuHints
        if showsStatistics, full || statisticsChanged {
            drawHintBar(UnsafeBufferPointer(rebasing: statistics[0 ..< statisticsCount]), color: GamePalette.sensorText)
            if !full { compositor.add(layout.hintBar) }
            statisticsChanged = false
        }
        lastMenuBox = nil
        if let menu {
            let box = drawMenu(menu, snapshot: snapshot)
            if !full { compositor.add(box) }
            lastMenuBox = box
        }
        return compositor.finishFrame()
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
        // The sensor's name (or the output's live figures) at the right, if there is room.
        if showsStatistics, outputFiguresCount > 0 {
            drawRightAligned(UnsafeBufferPointer(rebasing: outputFigures[0 ..< outputFiguresCount]), after: x, y: y,
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
        let widest = MenuText.widest(state, headlineCount: headline.count, labels: menuLabels)
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
            BitmapFont.draw(MenuText.label(item, labels: menuLabels),
                            x: itemX + BitmapFont.width(of: 2, scale: scale), y: y, scale: scale, color: color, into: picture)
        }
        return box
    }
}

/// The maze at a screen's resolution: bevelled walls and exits as rings
/// (`PixelMazeArt`), ghosts with eyes, smooth edges, stars that grow with
/// the text, and the bar of key hints at the bottom.
struct ScreenArt: MazeArt {
    let layout: PixelLayout
    let hint: [UInt8]
    let hintColor: RGB

    var cell: Int { layout.cell }
    var originX: Int { layout.originX }
    var originY: Int { layout.originY }
    var smoothSprites: Bool { true }
    /// The stars' tile and reach grow with the text scale, so they read alike on any screen.
    var parallaxSpacing: Int { 14 * layout.textScale }
    var parallaxReach: Int { 10 * layout.textScale }

    func paintMaze(_ level: Level, pellets: PelletSet, exitOpen: Bool, into canvas: Canvas) {
        PixelMazeArt.paint(level, layout: layout, pellets: pellets, exitOpen: exitOpen, into: canvas)
    }

    func paintCell(_ level: Level, column: Int, row: Int, pellets: PelletSet, exitOpen: Bool,
                   into canvas: Canvas) -> PixelRect? {
        PixelMazeArt.paintCell(level, column: column, row: row, layout: layout, pellets: pellets, exitOpen: exitOpen,
                                  into: canvas)
    }

    func paintGhost(center: (x: Double, y: Double), radius: Double, heading: Point, color: RGB,
                    into canvas: Canvas) -> PixelRect {
        PixelSprites.paintGhost(center: center, radius: radius, heading: heading, color: color, into: canvas)
    }

    func paintFixtures(into canvas: Canvas) {
        let bar = layout.hintBar
        canvas.fillRect(x: bar.x, y: bar.y, width: bar.width, height: bar.height, color: GamePalette.footerBackground)
        hint.withUnsafeBufferPointer {
            _ = BitmapFont.draw($0, x: layout.textInset, y: bar.y + 2 * layout.textScale, scale: layout.textScale,
                                color: hintColor, into: canvas)
        }
    }
}
