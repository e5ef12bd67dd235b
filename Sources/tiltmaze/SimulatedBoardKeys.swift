// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Displays
import MotionDevices
import Session
import SystemCalls

/// The simulated board's keys for a command that prints lines as it reads
/// the sensor: taken from the terminal when the board is the simulated one
/// and standard input is a terminal this command has the foreground of; said
/// once otherwise (the board then stays level: a recording or a listing of
/// it is still useful to try the pipeline). Any other source has no keys.
final class SimulatedBoardKeys {
    private let board: SimulatedSource?
    private var keys: TerminalKeys?

    /// After the source is started, so the lines it prints come first.
    init(_ chosen: ChosenSource) {
        board = chosen.simulatedBoard
        guard board != nil else { return }
        guard TerminalKeys.available() else {
            printError("\(chosen.description) stays level: standard input is not a terminal in the foreground, so no key "
                       + "can tilt it; run this in a terminal to tilt it (\(BoardKeys.hint))")
            return
        }
        do {
            keys = try TerminalKeys.start()
            printError("\(chosen.description): \(BoardKeys.hint)")
        } catch {
            printError("\(chosen.description) stays level: \(error)")
        }
    }

    /// Sleeps until `deadline`, tilting the board by the keys that come meanwhile.
    func wait(until deadline: Int64) {
        guard let keys, let board else {
            MonotonicClock.sleep(until: deadline)
            return
        }
        keys.waitForInput(until: deadline) { BoardKeys.apply($0, to: board) }
    }

    /// Gives the terminal its settings back; the command calls it on every way out (and `deinit` does too).
    func restore() { keys?.restore() }

    deinit { restore() }
}
