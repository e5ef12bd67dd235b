// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import ArgumentParser
import MotionDevices
import SystemCalls
import MotionCore

/// Makes the source `request` names and starts it, with Ctrl-C and SIGTERM
/// asking the caller's loop to stop; a failure is said in one line and ends
/// the program with the status its kind calls for. The caller stops the source.
func startedSource(_ options: SourceOptions, defaultRate: Double,
                   announce: (ChosenSource) -> Void = { _ in }) throws -> ChosenSource {
    try reportingFailure {
        let chosen = try options.makeSource(defaultRate: defaultRate)
        StopSignals.install()
        announce(chosen)
        try chosen.source.start()
        return chosen
    }
}
