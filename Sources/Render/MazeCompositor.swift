// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Game

/// How one back end draws the maze's parts at its own resolution: the
/// terminal's coarse picture (two pixels to a character, flat cells, discs)
/// or a screen's pixels (bevelled walls, ghosts with eyes, smooth edges).
/// Everything else, what changes and when, is `MazeCompositor`'s.
protocol MazeArt {
    /// Maze cells to picture pixels: a cell's side, and where cell (0, 0) starts.
    var cell: Int { get }
    var originX: Int { get }
    var originY: Int { get }
    /// Whether sprite edges are smoothed (a screen) or hard (the terminal's coarse pixels).
    var smoothSprites: Bool { get }
    /// The star layer's tile and how far the tilt moves it, in pixels.
    var parallaxSpacing: Int { get }
    var parallaxReach: Int { get }
    /// The static maze for `pellets` and `exitOpen`: margin, walls, floor, exits.
    func paintMaze(_ level: Level, pellets: PelletSet, exitOpen: Bool, into canvas: Canvas)
    /// One cell painted again (an eaten pellet) and its rectangle; nil when
    /// this art repaints the whole maze instead (cheap at terminal sizes).
    func paintCell(_ level: Level, column: Int, row: Int, pellets: PelletSet, exitOpen: Bool,
                   into canvas: Canvas) -> PixelRect?
    /// A ghost centred at `center` (pixels), `radius` pixels, looking along `heading`.
    func paintGhost(center: (x: Double, y: Double), radius: Double, heading: Point, color: RGB,
                    into canvas: Canvas) -> PixelRect
    /// Whatever else is fixed on the picture (a screen's bar of key hints),
    /// painted on the plain and the tinted background after the tint.
    func paintFixtures(into canvas: Canvas)
}

extension MazeArt {
    func paintFixtures(into canvas: Canvas) {}
}

/// The one place a `WorldSnapshot` becomes a picture, for every back end:
/// the maze painted once (plain, and tinted for the caught flash), the star
/// layer moved with the tilt, eaten pellets painted out, the ghosts and the
/// player painted where they are and the background put back where they
/// were, and the list of rectangles that changed. The terminal turns those
/// rectangles into half-block cells; a framebuffer or KMS copies them.
///
/// Everything is allocated at init (or at a new layout); a frame allocates nothing.
final class MazeCompositor<Art: MazeArt> {
    private let level: Level
    private(set) var art: Art
    private let background: Canvas
    private let tintedBackground: Canvas
    /// The frame being composed; what the back end shows.
    let picture: Canvas

    private var parallaxMargins: [PixelRect] = []
    private var shownParallax = (x: 0, y: 0)
    private var shownPellets: PelletSet
    private var shownExitOpen = true
    private var previousSprites: UnsafeMutableBufferPointer<PixelRect>
    private var currentSprites: UnsafeMutableBufferPointer<PixelRect>
    private var previousSpriteCount = 0
    private let changed: UnsafeMutableBufferPointer<PixelRect>
    private var changedCount = 0
    private var pictureIsFresh = false
    private var lastTinted = false

    static var spriteCapacity: Int { Level.maxGhosts + 1 }
    /// Pellets eaten in one frame that are painted out cell by cell; more (a restart) repaint everything.
    static var pelletPatches: Int { 8 }
    /// Rectangles a back end may add to a frame's list: its status bar, its hint bar, a menu.
    static var extraCapacity: Int { 3 }
    /// A frame's list at its longest: the sprites' old and new places, the
    /// star layer's four margins, the pellets painted out, the area restored
    /// from under a menu, and the back end's own.
    static var changedCapacity: Int { 2 * spriteCapacity + 4 + pelletPatches + 1 + extraCapacity }

    /// - Parameter parallaxArea: where the star layer may show (its margins
    ///   are this area less the maze); nil for none.
    init(level: Level, art: Art, width: Int, height: Int, parallaxArea: PixelRect?) {
        self.level = level
        self.art = art
        background = Canvas(width: width, height: height)
        tintedBackground = Canvas(width: width, height: height)
        picture = Canvas(width: width, height: height)
        shownPellets = PelletSet(all: level.pellets.count)
        previousSprites = .allocate(capacity: Self.spriteCapacity)
        previousSprites.initialize(repeating: .empty)
        currentSprites = .allocate(capacity: Self.spriteCapacity)
        currentSprites.initialize(repeating: .empty)
        changed = .allocate(capacity: Self.changedCapacity)
        changed.initialize(repeating: .empty)
        layOut(parallaxArea: parallaxArea)
    }

    deinit {
        previousSprites.deallocate()
        currentSprites.deallocate()
        changed.deallocate()
    }

    /// A new layout (the terminal resized): the pictures at the new size,
    /// painted again; the next frame is whole. Allocates.
    func relayout(art: Art, width: Int, height: Int, parallaxArea: PixelRect?) {
        self.art = art
        background.resize(width: width, height: height)
        tintedBackground.resize(width: width, height: height)
        picture.resize(width: width, height: height)
        layOut(parallaxArea: parallaxArea)
    }

    private func layOut(parallaxArea: PixelRect?) {
        parallaxMargins = parallaxArea.map {
            ParallaxLayer.margins(of: $0, around: PixelRect(x: art.originX, y: art.originY, width: level.width * art.cell,
                                                            height: level.height * art.cell))
        } ?? []
        paintBackgrounds()
        previousSpriteCount = 0
        pictureIsFresh = false
    }

    /// Makes the next frame whole: after the screen was someone else's, or
    /// when the back end drew over the picture (a menu) and takes it away.
    func forceFullRepaint() { pictureIsFresh = false }

    /// The static pictures as `shownPellets` and `shownExitOpen` say, plain and tinted.
    private func paintBackgrounds() {
        art.paintMaze(level, pellets: shownPellets, exitOpen: shownExitOpen, into: background)
        for rect in parallaxMargins { paintParallax(rect, into: background) }
        tint(PixelRect(x: 0, y: 0, width: background.width, height: background.height))
        art.paintFixtures(into: background)
        art.paintFixtures(into: tintedBackground)
    }

    private func tint(_ rect: PixelRect) {
        tintedBackground.blendRect(from: background, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                   towards: GamePalette.caughtTint, fraction: GamePalette.caughtTintAmount)
    }

    private func paintParallax(_ rect: PixelRect, tint: Double = 0, into canvas: Canvas) {
        ParallaxLayer.paint(rect, offset: shownParallax, spacing: art.parallaxSpacing, tint: tint, into: canvas)
    }

    /// Composes the maze for `snapshot` into `picture`. Returns whether the
    /// whole picture was repainted (`forceFull`, a new layout, the caught
    /// flash starting or ending, pellets coming back); the rectangles that
    /// changed are then the whole picture. `finishFrame()` gives the list.
    /// - Parameter restoring: a part of the picture the back end drew over
    ///   last frame (a menu box), put back to the maze before the sprites.
    func compose(_ snapshot: WorldSnapshot, player: PlayerStyle, forceFull: Bool = false,
                 restoring: PixelRect? = nil) -> Bool {
        let tinted = snapshot.caughtFlash > 0
        let backdrop = tinted ? tintedBackground : background
        changedCount = 0
        let patched = updatePellets(snapshot, backdrop: backdrop)
        let full = !patched || forceFull || !pictureIsFresh || tinted != lastTinted
        updateParallax(snapshot, backdrop: backdrop, full: full)
        if full {
            picture.copy(from: backdrop)
            changedCount = 0
            add(PixelRect(x: 0, y: 0, width: picture.width, height: picture.height))
        } else {
            if let r = restoring {
                picture.copyRect(from: backdrop, x: r.x, y: r.y, width: r.width, height: r.height)
                add(r)
            }
            for i in 0 ..< previousSpriteCount {
                let r = previousSprites[i]
                picture.copyRect(from: backdrop, x: r.x, y: r.y, width: r.width, height: r.height)
                add(r)
            }
        }
        var sprites = 0
        let ghosts = min(max(snapshot.ghostCount, 0), Level.maxGhosts)
        let cell = Double(art.cell)
        for g in 0 ..< ghosts {
            currentSprites[sprites] = art.paintGhost(center: pixel(snapshot.ghosts[g]), radius: snapshot.ghostRadius * cell,
                                                     heading: snapshot.ghostHeadings[g], color: GamePalette.ghost(g),
                                                     into: picture)
            sprites += 1
        }
        // The player last, so it stays visible when a ghost catches it; it
        // blinks through the grace after a catch.
        if !Sprites.blinkedOut(snapshot) {
            let center = pixel(snapshot.ball)
            currentSprites[sprites] = PlayerSprite.paint(player, motion: snapshot.player, centerX: center.x,
                                                         centerY: center.y, radius: snapshot.ballRadius * cell,
                                                         smooth: art.smoothSprites, into: picture)
            sprites += 1
        }
        if !full {
            for i in 0 ..< sprites { add(currentSprites[i]) }
        }
        swap(&previousSprites, &currentSprites)
        previousSpriteCount = sprites
        pictureIsFresh = true
        lastTinted = tinted
        return full
    }

    /// Adds a rectangle the back end changed itself (its status bar, a menu drawn over the picture).
    func add(_ rect: PixelRect) {
        guard changedCount < changed.count else {
            // More than the list was made for: copy the whole picture rather than leave a change uncopied.
            changed[0] = PixelRect(x: 0, y: 0, width: picture.width, height: picture.height)
            changedCount = 1
            return
        }
        changed[changedCount] = rect
        changedCount += 1
    }

    /// The rectangles this frame changed, overlapping ones merged where one
    /// box costs no more (a sprite's old and new places). Valid until the next frame.
    func finishFrame() -> UnsafeBufferPointer<PixelRect> {
        changedCount = PixelRect.mergeOverlapping(changed, count: changedCount)
        return UnsafeBufferPointer(rebasing: changed[0 ..< changedCount])
    }

    private func pixel(_ p: Point) -> (x: Double, y: Double) {
        (Double(art.originX) + p.x * Double(art.cell), Double(art.originY) + p.y * Double(art.cell))
    }

    /// Brings the static pictures to the snapshot's pellets and exit, eaten
    /// pellets painted out cell by cell; false when everything was repainted
    /// instead (a restart brought them back, the exit opened, too many at once).
    private func updatePellets(_ snapshot: WorldSnapshot, backdrop: Canvas) -> Bool {
        guard snapshot.pellets != shownPellets || snapshot.exitOpen != shownExitOpen else { return true }
        var eaten = 0, returned = false
        for i in 0 ..< level.pellets.count where shownPellets.contains(i) != snapshot.pellets.contains(i) {
            if snapshot.pellets.contains(i) { returned = true }
            eaten += 1
        }
        let patchable = !returned && eaten <= Self.pelletPatches && snapshot.exitOpen == shownExitOpen
        let before = shownPellets
        shownPellets = snapshot.pellets
        shownExitOpen = snapshot.exitOpen
        if patchable {
            var painted = true
            for i in 0 ..< level.pellets.count where before.contains(i) && !shownPellets.contains(i) {
                let p = level.pellets[i]
                guard let rect = art.paintCell(level, column: p.column, row: p.row, pellets: shownPellets,
                                               exitOpen: shownExitOpen, into: background) else {
                    painted = false
                    break
                }
                tint(rect)
                picture.copyRect(from: backdrop, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
                add(rect)
            }
            if painted { return true }
        }
        paintBackgrounds()
        return false
    }

    /// Moves the star layer to the snapshot's tilt: its margins repainted
    /// when the whole-pixel offset changed.
    private func updateParallax(_ snapshot: WorldSnapshot, backdrop: Canvas, full: Bool) {
        let offset = ParallaxLayer.offset(snapshot.gravity, reach: art.parallaxReach)
        guard offset != shownParallax, !parallaxMargins.isEmpty else { return }
        shownParallax = offset
        for rect in parallaxMargins {
            paintParallax(rect, into: background)
            paintParallax(rect, tint: GamePalette.caughtTintAmount, into: tintedBackground)
            guard !full else { continue }
            picture.copyRect(from: backdrop, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            add(rect)
        }
    }
}
