// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import Controls
@testable import Game

/// The menus and what each input does, without threads or a terminal.
@Suite("Game flow: inputs and menus")
struct GameFlowTests {
    @Test("while playing, directions tilt the simulated board and space levels it")
    func playingDirections() {
        var flow = GameFlow()
        #expect(flow.handle(.up) == .nudge(right: 0, up: 1))
        #expect(flow.handle(.down) == .nudge(right: 0, up: -1))
        #expect(flow.handle(.left) == .nudge(right: -1, up: 0))
        #expect(flow.handle(.right) == .nudge(right: 1, up: 0))
        #expect(flow.handle(.level) == .level)
        #expect(flow.menu == nil && !flow.wantsPause)
    }

    @Test("space levels the simulated board in a menu too, and the menu stays open")
    func levelInMenu() {
        var flow = GameFlow()
        _ = flow.handle(.pause)
        _ = flow.handle(.down)
        #expect(flow.handle(.level) == .level)
        #expect(flow.menu?.selectedItem == .restart)
    }

    @Test("pause or select opens the pause menu on Resume; the physics should stop")
    func opening() {
        for input in [GameInput.pause, .select] {
            var flow = GameFlow()
            #expect(flow.handle(input) == nil)
            #expect(flow.menu == MenuState(.paused, selected: 0))
            #expect(flow.wantsPause)
        }
    }

    @Test("in the menu, up and down move the highlight, wrapping round, and do not tilt the board")
    func navigating() {
        var flow = GameFlow()
        _ = flow.handle(.pause)
        #expect(flow.handle(.down) == nil)
        #expect(flow.menu?.selectedItem == .restart)
        _ = flow.handle(.down)
        #expect(flow.menu?.selectedItem == .calibrateHere)
        _ = flow.handle(.down)
        #expect(flow.menu?.selectedItem == .settings)
        _ = flow.handle(.down)
        #expect(flow.menu?.selectedItem == .quit)
        _ = flow.handle(.down)
        #expect(flow.menu?.selectedItem == .resume)
        _ = flow.handle(.up)
        #expect(flow.menu?.selectedItem == .quit)
    }

    @Test("choosing Resume, or pause or back again, closes the menu")
    func resuming() {
        for close in [[GameInput.select], [.pause], [.back]] {
            var flow = GameFlow()
            _ = flow.handle(.pause)
            for input in close { #expect(flow.handle(input) == nil) }
            #expect(flow.menu == nil && !flow.wantsPause)
        }
    }

    @Test("Esc goes back one menu: the level list to the pause menu, the pause menu to the game; while playing it quits")
    func escapeGoesBack() {
        var flow = GameFlow(campaign: GameFlow.Campaign(current: 0, count: 3, unlocked: 2))
        #expect(flow.handle(.pause) == nil)
        while flow.menu?.selectedItem != .levels { _ = flow.handle(.down) }
        #expect(flow.handle(.select) == nil)
        #expect(flow.menu?.menu == .levels)
        #expect(flow.handle(.cancel) == nil)
        #expect(flow.menu?.menu == .paused && flow.menu?.selectedItem == .levels)
        #expect(flow.handle(.cancel) == nil)
        #expect(flow.menu == nil && !flow.wantsPause)
        #expect(flow.handle(.cancel) == .quit)
    }

    @Test("choosing Restart restarts and closes the menu; choosing Quit quits")
    func choosing() {
        var flow = GameFlow()
        _ = flow.handle(.pause)
        _ = flow.handle(.down)
        #expect(flow.handle(.select) == .restart)
        #expect(flow.menu == nil)
        _ = flow.handle(.pause)
        _ = flow.handle(.up)
        #expect(flow.handle(.select) == .quit)
    }

    @Test("choosing Calibrate here asks for the neutral to be taken and closes the menu")
    func calibrateHere() {
        var flow = GameFlow()
        _ = flow.handle(.pause)
        _ = flow.handle(.down)
        _ = flow.handle(.down)
        #expect(flow.handle(.select) == .calibrateHere)
        #expect(flow.menu == nil && !flow.wantsPause)
    }

    @Test("r and q act at once, menu or not")
    func directKeys() {
        var flow = GameFlow()
        #expect(flow.handle(.restart) == .restart)
        _ = flow.handle(.pause)
        #expect(flow.handle(.quit) == .quit)
    }

    @Test("reaching the exit opens the win menu; Play again restarts, and the menu stays shut while the world still says won")
    func winning() {
        var flow = GameFlow()
        flow.update(status: .won)
        #expect(flow.menu == MenuState(.won))
        #expect(!flow.wantsPause)
        #expect(flow.handle(.select) == .restart)
        flow.update(status: .won)   // the physics thread has not restarted yet
        #expect(flow.menu == nil)
        flow.update(status: .playing)
        flow.update(status: .won)
        #expect(flow.menu == MenuState(.won))
        _ = flow.handle(.down)
        #expect(flow.handle(.select) == .quit)
    }

    @Test("pause does not close the win menu")
    func pauseOnWin() {
        var flow = GameFlow()
        flow.update(status: .won)
        _ = flow.handle(.pause)
        #expect(flow.menu == MenuState(.won))
    }

    @Test("F12 asks for a screenshot whether or not a menu is open, and leaves the menu as it was")
    func screenshot() {
        var flow = GameFlow()
        #expect(flow.handle(.screenshot) == .screenshot)
        #expect(flow.menu == nil)
        _ = flow.handle(.pause)
        #expect(flow.handle(.screenshot) == .screenshot)
        #expect(flow.menu == MenuState(.paused))
    }
}

@Suite("Keyboard and pad inputs")
struct InputMappingTests {
    @Test("keys map to inputs: arrows and WASD, Enter, space, p, r, q, Esc and Ctrl-C; others are ignored")
    func keys() {
        #expect(GameInput(key: .up) == .up)
        #expect("wasdWASD".utf8.map { GameInput(key: .character($0)) } == [.up, .left, .down, .right, .up, .left, .down, .right])
        #expect(GameInput(key: .enter) == .select)
        #expect(GameInput(key: .space) == .level)
        #expect(GameInput(key: .character(UInt8(ascii: "p"))) == .pause)
        #expect(GameInput(key: .character(UInt8(ascii: "R"))) == .restart)
        #expect(GameInput(key: .character(UInt8(ascii: "q"))) == .quit)
        #expect(GameInput(key: .escape) == .cancel)
        #expect(GameInput(key: .escape, in: .panel) == .back)
        #expect(GameInput(key: .interrupt) == .quit)
        #expect(GameInput(key: .character(UInt8(ascii: "x"))) == nil)
        #expect(GameInput(key: .function(12)) == .screenshot)
        #expect(GameInput(key: .function(5)) == nil)
    }

    @Test("pad buttons map by position: D-pad moves, south selects, east goes back, start pauses, select restarts")
    func padButtons() {
        #expect(GameInput(button: .up) == .up)
        #expect(GameInput(button: .down) == .down)
        #expect(GameInput(button: .left) == .left)
        #expect(GameInput(button: .right) == .right)
        #expect(GameInput(button: .south) == .select)
        #expect(GameInput(button: .east) == .back)
        #expect(GameInput(button: .start) == .pause)
        #expect(GameInput(button: .select) == .restart)
    }

    @Test("on a panel the letters are its own commands (q still quits), F12 does nothing, Start leaves and Select levels")
    func panelContext() {
        #expect("wasdPRxZ5".utf8.map { GameInput(key: .character($0), in: .panel) }
                == [.character(UInt8(ascii: "w")), .character(UInt8(ascii: "a")), .character(UInt8(ascii: "s")),
                    .character(UInt8(ascii: "d")), .character(UInt8(ascii: "p")), .character(UInt8(ascii: "r")),
                    .character(UInt8(ascii: "x")), .character(UInt8(ascii: "z")), .character(UInt8(ascii: "5"))])
        #expect(GameInput(key: .character(UInt8(ascii: "Q")), in: .panel) == .quit)
        #expect(GameInput(key: .space, in: .panel) == .level)
        #expect(GameInput(key: .up, in: .panel) == .up && GameInput(key: .enter, in: .panel) == .select)
        #expect(GameInput(key: .function(12), in: .panel) == nil)
        #expect(GameInput(button: .start, in: .panel) == .back)
        #expect(GameInput(button: .select, in: .panel) == .level)
        #expect(GameInput(button: .east, in: .panel) == .back && GameInput(button: .south, in: .panel) == .select)
    }
}

@Suite("Game flow in a campaign: game over, next level, the level menu")
struct CampaignFlowTests {
    func flow(current: Int = 0, count: Int = 8, unlocked: Int = 3) -> GameFlow {
        GameFlow(campaign: GameFlow.Campaign(current: current, count: count, unlocked: unlocked))
    }

    @Test("losing the last life opens Game over: Retry starts a new game, Quit quits")
    func gameOver() {
        var f = flow()
        f.update(status: .lost)
        #expect(f.menu?.menu == .lost && f.menu?.items == [.retry, .levels, .quit])
        #expect(f.handle(.select) == .restart)
        #expect(f.menu == nil)
        f.update(status: .lost)   // the world has not taken the restart yet
        #expect(f.menu == nil)
        f.update(status: .playing)
        f.update(status: .lost)
        #expect(f.menu?.menu == .lost)
        _ = f.handle(.up)
        #expect(f.handle(.select) == .quit)
    }

    @Test("winning offers the next level first; choosing it plays it; the last level has none")
    func nextLevel() {
        var f = flow(current: 2)
        f.update(status: .won)
        #expect(f.menu?.items == [.nextLevel, .playAgain, .levels, .quit])
        #expect(f.handle(.select) == .playLevel(3))
        #expect(f.menu == nil && f.campaign?.current == 3)
        var last = flow(current: 7, unlocked: 8)
        last.update(status: .won)
        #expect(last.menu?.items == [.playAgain, .levels, .quit])
    }

    @Test("the level menu lists every level then Back; a shut level says what opens it and does nothing else; an open one is played")
    func levelMenu() {
        var f = flow(current: 1)
        _ = f.handle(.pause)
        #expect(f.menu?.items == GameMenu.pausedInCampaign)
        _ = f.handle(.down)
        _ = f.handle(.down)
        #expect(f.handle(.select) == nil)
        #expect(f.menu?.menu == .levels && f.menu?.items.count == 9 && f.menu?.selected == 1)
        #expect(f.wantsPause, "opened from the pause menu, the game stays paused")
        for _ in 0 ..< 3 { _ = f.handle(.down) }
        #expect(f.menu?.selectedItem == .level(4))
        #expect(f.handle(.select) == .refused("level 5 is locked: each level opens when the one before it is won (level 3 is next)"), "level 5 is shut, and says what opens it")
        #expect(f.menu?.menu == .levels, "the list stays open")
        _ = f.handle(.up)
        _ = f.handle(.up)
        #expect(f.handle(.select) == .playLevel(2))
        #expect(f.menu == nil && !f.wantsPause)
    }

    @Test("Back, or the back button, returns from the level menu to the menu it came from")
    func back() {
        var f = flow()
        f.update(status: .won)
        _ = f.handle(.down)
        _ = f.handle(.down)
        _ = f.handle(.select)
        #expect(f.menu?.menu == .levels)
        _ = f.handle(.back)
        #expect(f.menu?.menu == .won)
        _ = f.handle(.select)   // Levels again (the highlight stayed)
        #expect(f.menu?.menu == .levels)
        _ = f.handle(.up)       // to Back, wrapping round
        #expect(f.menu?.selectedItem == .back)
        #expect(f.handle(.select) == nil && f.menu?.menu == .won)
        // The won world does not reopen the win menu over the level menu.
        _ = f.handle(.select)
        f.update(status: .won)
        #expect(f.menu?.menu == .levels)
    }

    @Test("outside a campaign the menus have no Levels or Next level")
    func single() {
        var f = GameFlow()
        f.update(status: .won)
        #expect(f.menu?.items == [.playAgain, .quit])
        var g = GameFlow()
        g.update(status: .lost)
        #expect(g.menu?.items == [.retry, .quit])
    }
}
