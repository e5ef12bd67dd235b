// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import FoundationEssentials
import Game
import SystemCalls

/// `tiltmaze levels`: the campaign, with what is open and the best times.
struct Levels: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the campaign's levels: which are open, and the best times.",
        discussion: """
            A level opens when the one before it is won. Progress and best times
            are kept in $XDG_STATE_HOME/tiltmaze/progress.json, else
            ~/.local/state/tiltmaze/progress.json. Play one with `tiltmaze play --start N` (and the same --campaign).
            """
    )

    @Option(help: ArgumentHelp("List your own campaign (a folder of level files, as `play --campaign` takes) instead of the bundled one.", valueName: "dir"))
    var campaign: String?

    func run() throws {
        let folder = ProgressStore.folder(environment: ProcessInfo.processInfo.environment)
        if case .refused(let refusal) = folder { printError(refusal.problem(ProgressStore.contents) + "; every level is listed as never won") }
        let store = folder.path.map(ProgressStore.init(directory:))
        let playlist = try campaign.map { Playlist.campaign(folder: try loadCampaign($0), store: store) }
            ?? Playlist.campaign(store: store)
        for line in playlist.banner.levelLabels { print(line) }
        if let store { print("(progress: \(store.path))") }
        for problem in playlist.problems { printError(problem) }
    }
}
