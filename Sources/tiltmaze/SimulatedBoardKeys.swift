// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Displays
import MotionDevices
import Realtime
import Session
import Synchronization
import SystemCalls

/// The simulated board's keys for a command that prints lines as it reads
/// the sensor: taken from the terminal when the board is the simulated one
/// and standard input is a terminal this command has the foreground of; said
/// once otherwise (the board then stays level: a recording or a listing of
/// it is still useful to try the pipeline). Any other source has no keys.
///
/// The keys are read on a thread of their own, so the command's thread
/// sleeps on the sensor's doorbell alone (`SampleReader`).
final class SimulatedBoardKeys {
    private let board: SimulatedSource?
    private var keys: TerminalKeys?
    private var thread: OSThread?
    private var reading: Reading?

    /// After the source is started, so the lines it prints come first.
    init(_ chosen: ChosenSource) {
        board = chosen.simulatedBoard
        guard let board else { return }
        guard TerminalKeys.available() else {
            printError("\(chosen.description) stays level: standard input is not a terminal in the foreground, so no key "
                       + "can tilt it; run this in a terminal to tilt it (\(BoardKeys.hint))")
            return
        }
        do {
            let keys = try TerminalKeys.start()
            self.keys = keys
            printError("\(chosen.description): \(BoardKeys.hint)")
            startReading(keys, board)
        } catch {
            printError("\(chosen.description) stays level: \(error)")
        }
    }

    /// Tilts the board by the keys as they come, on the thread tiltmaze-keys.
    private func startReading(_ keys: TerminalKeys, _ board: SimulatedSource) {
        let reading = Reading(keys: keys)
        self.reading = reading
        thread = try? OSThread(name: "tiltmaze-keys") {
            // In slices, so that `restore` is heeded within one; a stop signal ends the wait at once, and the thread.
            while reading.going.load(ordering: .acquiring), !StopSignals.isRequested {
                reading.keys.waitForInput(until: MonotonicClock.now() + 100_000_000) { BoardKeys.apply($0, to: board) }
            }
        }
        if thread == nil { printError("the simulated board stays level: no thread could be made to read its keys") }
    }

    /// Ends the keys' thread and gives the terminal its settings back; the
    /// command calls it on every way out (and `deinit` does too).
    func restore() {
        reading?.going.store(false, ordering: .releasing)
        thread?.join()
        thread = nil
        keys?.restore()
    }

    /// What the keys' thread reads, and whether it should go on.
    private final class Reading: @unchecked Sendable {
        // @unchecked Sendable: `keys` is used by the keys' thread alone,
        // from its start to the join in `restore`; `going` is atomic.
        let keys: TerminalKeys
        let going = Atomic<Bool>(true)
        init(keys: TerminalKeys) { self.keys = keys }
    }

    deinit { restore() }
}
