import ArgumentParser
import Foundation
import Game

/// `tiltmaze levels`: the campaign, with what is open and the best times.
struct Levels: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the campaign's levels: which are open, and the best times.",
        discussion: """
            A level opens when the one before it is won. Progress and best times
            are kept in $XDG_STATE_HOME/tiltmaze/progress.json, else
            ~/.local/state/tiltmaze/progress.json. Play one with `tiltmaze play --start N`.
            """
    )

    func run() throws {
        let store = ProgressStore.standard(environment: ProcessInfo.processInfo.environment)
        let playlist = Playlist.campaign(store: store)
        for line in playlist.banner.levelLabels { print(line) }
        if let store { print("(progress: \(store.path))") }
        for problem in playlist.problems { printError(problem) }
    }
}
